"""One module per real part. Hardware libraries are imported late, inside each adapter."""
