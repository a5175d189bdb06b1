"""Named pipelines: a name that stands for a sequence of passes in a `-p` spec."""

PIPELINES: dict[str, str] = {
}
