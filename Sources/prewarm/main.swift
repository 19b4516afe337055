import PrewarmKit
print("prewarm")
