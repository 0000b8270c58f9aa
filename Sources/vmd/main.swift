// placeholder
print("vmd: not built yet")
