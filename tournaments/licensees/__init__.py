"""The federation's licensee list: the installation's reference of FFT licences (name, club,
série, sex, year of birth), imported by an organiser and looked up when a player registers.
A room of its own; the file's rules are pure: :mod:`tournaments.licensees.rules`."""
