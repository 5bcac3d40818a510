"""The "Profile likelihood in a network" page: model (graphs, profiles) and figures."""
