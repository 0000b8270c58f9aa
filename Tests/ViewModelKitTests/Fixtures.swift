// Fixtures shared by the kit's tests.
