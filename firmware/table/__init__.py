"""The table's roles: the dome controller (dome.py) and a player station's
game cycle (station.py), chosen by the board's configuration (hal/role.py);
the protocol between them is firmware/link."""
