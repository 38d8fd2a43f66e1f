// Starts Swagger UI on /docs with the service's own OpenAPI document. A file of its own, served
// by the service, so that the page's Content-Security-Policy needs no inline script.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  // The default sends the document to validator.swagger.io for a badge: nothing leaves this origin.
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: false,
  displayRequestDuration: true,
  filter: true,
  showExtensions: false,
  tryItOutEnabled: false,
  // Credentials given to Authorize live in this page only, never in storage.
  persistAuthorization: false,
});
