"""Tests of the command line and the documentation tools."""

from pecan_microversions.tools.cli import main


def run(capsys, *argv):
    """The command's exit status, standard output and standard error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
