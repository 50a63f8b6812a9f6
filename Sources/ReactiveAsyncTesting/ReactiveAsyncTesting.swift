// Marble tests for async sequences (issue 42): inputs and the expected output as marble strings
// in the `.pipe` language's tokens, run on a clock that moves only when told.
