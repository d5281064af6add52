"""The demo's node store: copies out, scalars only, atomic updates."""

import datetime
import threading
import uuid

import pytest

from pecan_microversions.demo.store import NodeStore

SEED = '00000000-0000-0000-0000-000000000001'


def test_changing_a_returned_node_changes_nothing_stored():
    store = NodeStore.seeded()
    node = store.get(SEED)
    node['name'] = 'changed'
    store.list()[0]['owner'] = 'changed'
    created = store.create({'name': 'n', 'driver': 'ipmi'})
    created['driver'] = 'changed'
    assert store.get(SEED)['name'] == 'node-0'
    assert store.get(SEED)['owner'] == 'alice'
    assert store.get(created['uuid'])['driver'] == 'ipmi'


def test_changing_the_fields_given_to_create_changes_nothing_stored():
    store = NodeStore()
    fields = {'name': 'n', 'driver': 'ipmi'}
    created = store.create(fields)
    fields['name'] = 'changed'
    assert store.get(created['uuid'])['name'] == 'n'


@pytest.mark.parametrize('value', [['a'], {'a': 1}, {'a'}, bytearray(b'a')])
def test_mutable_values_are_refused(value):
    store = NodeStore.seeded()
    before = store.list()
    with pytest.raises(TypeError, match='immutable scalar'):
        store.create({'name': 'n', 'description': value})
    with pytest.raises(TypeError, match='immutable scalar'):
        with store.updating(SEED) as draft:
            draft['description'] = value
    with pytest.raises(TypeError, match='immutable scalar'):
        store.load([{'uuid': 'x', 'name': value}])
    assert store.list() == before


def test_updating_stores_the_draft_only_if_the_block_succeeds():
    store = NodeStore.seeded()
    with pytest.raises(RuntimeError):
        with store.updating(SEED) as draft:
            draft['name'] = 'half-done'
            raise RuntimeError
    assert store.get(SEED)['name'] == 'node-0'
    with store.updating(SEED) as draft:
        draft['name'] = 'renamed'
    draft['name'] = 'after the block'
    assert store.get(SEED)['name'] == 'renamed'
    with store.updating('nope') as missing:
        assert missing is None


def test_readers_keep_what_they_read_while_a_node_is_updated():
    store = NodeStore.seeded()
    before = store.get(SEED)
    with store.updating(SEED) as draft:
        draft['name'] = 'renamed'
        assert store.get(SEED)['name'] == 'node-0'
    assert before['name'] == 'node-0'


def test_concurrent_updates_are_not_lost():
    store = NodeStore.seeded()

    def bump():
        for _ in range(300):
            with store.updating(SEED) as draft:
                draft['description'] = str(int(draft['description'] or 0)
                                           + 1)

    with store.updating(SEED) as draft:
        draft['description'] = '0'
    threads = [threading.Thread(target=bump) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert store.get(SEED)['description'] == str(8 * 300)


def test_seeded_stores_are_identical_and_extend_the_three_seeds():
    small, large = NodeStore.seeded(), NodeStore.seeded(50)
    assert large.list()[:3] == small.list()
    assert large.list() == NodeStore.seeded(50).list()
    nodes = large.list()
    assert [n['uuid'] for n in nodes] == [str(uuid.UUID(int=i + 1))
                                          for i in range(50)]
    assert len({n['name'] for n in nodes}) == 50
    assert nodes[49]['created_at'] - nodes[0]['created_at'] == (
        datetime.timedelta(hours=49))


def test_uuid_and_clock_can_be_given():
    moment = datetime.datetime(2026, 3, 1, tzinfo=datetime.timezone.utc)
    store = NodeStore(new_uuid=lambda: 'fixed', clock=lambda: moment)
    created = store.create({'name': 'n'})
    assert (created['uuid'], created['created_at']) == ('fixed', moment)


def test_delete_and_load():
    store = NodeStore.seeded()
    seeds = store.list()
    created = store.create({'name': 'n'})
    assert store.delete(created['uuid']) is True
    assert store.delete(created['uuid']) is False
    store.create({'name': 'again'})
    with store.updating(SEED) as draft:
        draft['name'] = 'renamed'
    store.load(seeds)
    assert store.list() == seeds


@pytest.mark.parametrize('domain', [None, ''])
def test_an_owner_without_a_domain_is_refused(domain):
    store = NodeStore.seeded()
    before = store.list()
    with pytest.raises(ValueError, match='owner_domain'):
        store.create({'name': 'n', 'owner': 'o', 'owner_domain': domain})
    with pytest.raises(ValueError, match='owner_domain'):
        with store.updating(SEED) as draft:
            draft['owner_domain'] = domain
    with pytest.raises(ValueError, match='owner_domain'):
        store.load([{'uuid': 'x', 'owner': 'o', 'owner_domain': domain}])
    assert store.list() == before
    # A node without an owner needs no domain.
    assert store.create({'name': 'n'})['owner_domain'] is None
