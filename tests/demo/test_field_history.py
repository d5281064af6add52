"""The library's ready-made contract test, dropped into the demo's suite.

At every version of the fleet history, the node fields in each response must
be exactly those the registry's declarations give for that version.
"""

from pecan_microversions.demo.versions import REGISTRY
from pecan_microversions.tools.testing import Sample, field_contract_test

NODE = '/v1/nodes/00000000-0000-0000-0000-000000000001'

test_node_fields_follow_history = field_contract_test(
    REGISTRY,
    [Sample('/v1/nodes', 'node', collection='nodes'),
     Sample(NODE, 'node'),
     Sample('/v1/nodes?limit=1', 'node', collection='nodes', min_version='1.8')],
    app_fixture='demo', strict=True)


def test_demo_history_passes_check_with_the_projects_release_notes(capsys):
    """The project's own gate: the demo's history is complete and noted."""
    import pathlib

    from pecan_microversions.tools import cli

    notes = pathlib.Path(__file__).resolve().parents[2] / 'releasenotes'
    code = cli.main(['check', 'pecan_microversions.demo.versions:REGISTRY',
                     '--import', 'pecan_microversions.demo.app',
                     '--releasenotes', str(notes)])
    captured = capsys.readouterr()
    assert code == 0, captured.out
    assert 'no problems' in captured.out + captured.err
