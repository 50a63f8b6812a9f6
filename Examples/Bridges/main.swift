import Reactive
print("bridges example: coming with the async bridges")
