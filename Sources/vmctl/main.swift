// placeholder
print("vmctl: not built yet")
