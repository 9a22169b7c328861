"""What a board release is: the firmware image (MicroPython with firmware/ and
hal/ frozen in) plus these files on the filesystem. tools/deploy copies
exactly these and deletes everything else; Verify hashes the image and these,
and reports any other file it finds. Kept in the image, so a file on the
filesystem cannot change the list."""
FS_FILES = ("boot.py", "main.py")
# The board's own files, never code: the provisioned mark the cabinet writes
# (hal/marker.py: it tells a wiped journal from a new cabinet) and its role
# at a table (hal/role.py: written at installation, tools/deploy --table).
# tools/deploy keeps them, Verify does not report them.
STATE_FILES = ("journal.provisioned", "table.cfg")
