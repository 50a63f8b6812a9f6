import Testing
@testable import PipeLanguage
