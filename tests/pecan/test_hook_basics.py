"""The hook's main promises on the example app."""


def test_default_version_and_headers(app):
    response = app.get('/v1/echo')
    assert response.json == {'version': '1.0'}
    assert response.headers['OpenStack-API-Version'] == 'widget 1.0'
    assert response.headers['OpenStack-API-Minimum-Version'] == '1.0'
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.3'
    assert response.headers['Vary'] == ('OpenStack-API-Version, '
                                        'X-OpenStack-Widget-API-Version')


def test_routing_404_is_json_with_headers(app):
    response = app.get('/nowhere', headers={'Accept': 'text/html'}, status=404)
    assert response.content_type == 'application/json'
    assert response.json['errors'][0]['status'] == 404
    assert response.headers['OpenStack-API-Version'] == 'widget 1.0'


def test_pecan_405_detail_names_the_method(app):
    response = app.delete('/v1/readonly', status=405)
    detail = response.json['errors'][0]['detail']
    assert detail == 'The method DELETE is not allowed for this URL.'
    assert response.headers['Allow'] == 'GET'


def test_error_detail_quoting_huge_input_is_bounded():
    import webtest

    from pecan_microversions.demo.app import make_app
    demo = webtest.TestApp(make_app())
    response = demo.post_json('/v1/nodes', {'name': 'n' * 1_000_000,
                                            'hardware_type': 'ipmi'},
                              headers={'OpenStack-API-Version': 'fleet 1.8'},
                              status=400)
    assert len(response.body) < 2000
    assert response.json['errors'][0]['detail'].endswith('more characters)')
