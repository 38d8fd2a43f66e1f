// Starts Redoc on /redoc with the service's own OpenAPI document. A file of its own, served by
// the service, so that the page's Content-Security-Policy needs no inline script.
/* global Redoc */
Redoc.init(
  '/openapi.json',
  {
    expandResponses: '200,201',
    pathInMiddlePanel: true,
    requiredPropsFirst: true,
    sortTagsAlphabetically: false,
    hideHostname: false,
  },
  document.getElementById('redoc'),
);
