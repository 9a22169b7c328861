"""What a board release is: the firmware image (MicroPython with firmware/ and
hal/ frozen in) plus these files on the filesystem. tools/deploy copies
exactly these and deletes everything else; Verify hashes the image and these,
and reports any other file it finds. Kept in the image, so a file on the
filesystem cannot change the list."""
FS_FILES = ("boot.py", "main.py")
