// placeholder
print("vmd-bench: not built yet")
