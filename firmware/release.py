"""What a board release is: the firmware image (MicroPython with firmware/ and
hal/ frozen in) plus these files on the filesystem. tools/deploy copies
exactly these and deletes everything else; Verify hashes the image and these,
and reports any other file it finds. Kept in the image, so a file on the
filesystem cannot change the list."""
# One string, so tools/digest of an image takes the list from the image: the
# frozen string's bytes stand in flash as written (up to a NUL), where a tuple
# would be qstr numbers.
FS_LIST = "release-fs-files:boot.py main.py"
FS_FILES = tuple(FS_LIST.split(":")[1].split())
# The board's own files, never code: the provisioned mark the cabinet writes
# (hal/marker.py: it tells a wiped journal from a new cabinet) and its role
# at a table (hal/role.py: written at installation, tools/deploy --table).
# tools/deploy keeps them, Verify does not report them.
STATE_FILES = ("journal.provisioned", "table.cfg")
