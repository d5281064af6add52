"""The served OpenAPI document describes the errors the serving app sends."""

import pecan
import webtest
from openapi_spec_validator import validate

from pecan_microversions import MicroversionHook, VersionRegistry
from pecan_microversions.core.rendering import wsme_fault
from pecan_microversions.examples.envelope import ErrorMessageEnvelope
from pecan_microversions.tools.openapi import OpenAPIEndpoint
from pecan_microversions.tools.responses import API_WG_ERRORS, WSME_FAULT

REGISTRY = VersionRegistry('thing', [('1.0', 'First.'), ('1.1', 'Second.')])


class Root:
    def __init__(self, **options):
        self.endpoint = OpenAPIEndpoint(REGISTRY, self, **options)

    @pecan.expose('json', route='openapi.json')
    def openapi(self):
        return self.endpoint.respond()


def _served(root, **hook_options):
    return pecan.make_app(root, hooks=[MicroversionHook(REGISTRY,
                                                        **hook_options)],
                          guess_content_type_from_ext=False)


def _errors(app):
    document = webtest.TestApp(app).get('/openapi.json').json
    validate(document)
    return document['components']['schemas']['Errors']


def test_the_served_document_reads_the_serving_apps_hook():
    """Built in the root controller, the endpoint cannot see the hook; the
    first request shows it which errors the service sends."""
    root = Root()
    assert _errors(_served(root, error_renderer=wsme_fault)) == dict(
        WSME_FAULT)


def test_a_document_built_outside_a_request_is_not_kept():
    root = Root()
    app = _served(root, error_renderer=wsme_fault)
    early = root.endpoint.document('1.1')  # no request: the default
    assert early['components']['schemas']['Errors'] == dict(API_WG_ERRORS)
    assert _errors(app) == dict(WSME_FAULT)
    assert root.endpoint.document('1.1')['components']['schemas'][
        'Errors'] == dict(WSME_FAULT)


def test_the_default_renderer_is_described_as_api_wg_errors():
    assert _errors(_served(Root())) == dict(API_WG_ERRORS)


def test_error_body_describes_what_a_middleware_sends():
    envelope = ErrorMessageEnvelope(None)
    wrapped = envelope.describe_error(dict(WSME_FAULT))
    root = Root(error_body=wrapped)
    app = ErrorMessageEnvelope(_served(root, error_renderer=wsme_fault))
    assert _errors(app) == wrapped
    # What the service sends does match it.
    answer = webtest.TestApp(app).get('/nothing', expect_errors=True)
    assert answer.status_int == 404
    assert set(answer.json) == {'error_message'}
