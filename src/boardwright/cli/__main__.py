"""`python -m boardwright.cli`: the `boardwright` command."""

from boardwright.cli import main

main()
