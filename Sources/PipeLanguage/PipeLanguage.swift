// The `.pipe` language: text in, a runnable `Reactive` graph or positioned diagnostics out.
// `Session` is the entry point; see Syntax/, Diagnostics/, Catalog/, Runtime/ and Semantics/.
@_exported import Reactive
