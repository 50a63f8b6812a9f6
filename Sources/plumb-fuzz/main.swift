import PipeLanguage
print("plumb-fuzz: build with Scripts/fuzz")
