"""A cautious player for any playtest game, shipped as a package of its own.

playtest finds it through the `playtest.agents` entry point in pyproject.toml; once the
package is installed, `playtest simulate GAME --agents cautious,random` seats it.
"""
CAUTIOUS = ("check", "check_back", "call", "pass", "wait")


class Cautious:
    """Takes no risk it can avoid: an option named like a check, a call or a pass when one is
    offered (the first such), else any option at random."""

    def act(self, observation, options, rng):
        for i, option in enumerate(options):
            if option["option"] in CAUTIOUS:
                return i
        return rng.randrange(len(options))
