"""The table link: one dome controller and up to eight player stations on an
RS-485 bus (firmware/link/LINK.md). Pure logic over bytes and integers."""
