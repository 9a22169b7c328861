"""What a board release is: the firmware image (MicroPython with firmware/ and
hal/ frozen in) plus these files on the filesystem. tools/deploy copies
exactly these and deletes everything else; Verify hashes the image and these,
and reports any other file it finds. Kept in the image, so a file on the
filesystem cannot change the list."""
FS_FILES = ("boot.py", "main.py")
# Written by the cabinet itself, never code (hal/marker.py: the provisioned
# mark that tells a wiped journal from a new cabinet): tools/deploy keeps it,
# Verify does not report it.
STATE_FILES = ("journal.provisioned",)
