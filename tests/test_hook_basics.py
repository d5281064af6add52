"""The hook's main promises on the example app."""


def test_default_version_and_headers(app):
    response = app.get('/v1/echo')
    assert response.json == {'version': '1.0'}
    assert response.headers['OpenStack-API-Version'] == 'widget 1.0'
    assert response.headers['OpenStack-API-Minimum-Version'] == '1.0'
    assert response.headers['OpenStack-API-Maximum-Version'] == '1.3'
    assert response.headers['Vary'] == 'OpenStack-API-Version'


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
