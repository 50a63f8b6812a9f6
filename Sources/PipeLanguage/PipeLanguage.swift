@_exported import Reactive
