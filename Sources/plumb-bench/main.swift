import Reactive
print("plumb-bench: no cases yet")
