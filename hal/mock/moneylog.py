"""The simulator's money log (tools/sim --money-log), loaded only when asked for."""


class MoneyLog:
    """What the validator, the coin acceptor and the printer did, one line
    each, flushed at once, so a `kill -9` of the simulator leaves an exact
    account (tools/sim --money-log FILE; tests_host/test_sim_kill.py):
      B / C          a bill / coin pulse delivered into the counter
      P              the firmware read the counters again: every pulse above
                     had a whole money pass to be journalled
      T <validation> a ticket came out of the printer"""

    def __init__(self, path):
        self._f = open(path, "a")
        self.owed = False   # pulses logged since the last P

    def line(self, text):
        self._f.write(text + "\n")
        self._f.flush()
