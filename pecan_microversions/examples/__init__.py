"""Example services that adopted the library without changing their wire.

* :mod:`~pecan_microversions.examples.ironic_style`: plain dicts, no WSME,
  ``X-OpenStack-Ironic-API-*`` headers, 406 for a malformed version;
  ``python -m pecan_microversions.examples.ironic_style``.
* :mod:`~pecan_microversions.examples.watcher_style`: WSME types and WSME
  fault bodies, ``infra-optim 1`` served as 1.0, explicit null as absent;
  ``python -m pecan_microversions.examples.watcher_style``.

Both wrap error bodies with :mod:`~pecan_microversions.examples.envelope`,
as the services they imitate do, so that their released clients
(python-ironicclient, python-watcherclient) show the error's message.
"""
