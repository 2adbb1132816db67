/*!
 * A response API written the CommonJS way: methods assigned to an exported object and to a
 * prototype, as express and many npm packages do.
 */

'use strict';

var http = require('http');
var res = Object.create(http.ServerResponse.prototype);

module.exports = res;

/**
 * Set the status code.
 */
res.status = function status(code) {
  this.statusCode = code;
  return this;
};

/**
 * Send a response body.
 */
res.send = function send(body) {
  var chunk = body;
  // A helper assigned inside a method is its own detail.
  res.lastChunk = function () { return chunk; };
  this.end(chunk);
  return this;
};

res.contentType =
res.type = function contentType(type) {
  return this.set('Content-Type', type);
};

exports.parseRange = (size, header, options) => {
  return header.split(',').slice(0, size);
};

function Route(path) {
  this.path = path;
  this.stack = [];
}

Route.prototype.dispatch = function dispatch(req, res, done) {
  done();
};

Route.prototype.all = async function all() {
  return this;
};

exports.Router = class Router {
  route(path) {
    return new Route(path);
  }
};

res.locals = {};
res.charset = 'utf-8';

// An object written out is not an export list; without functions it holds no methods either.
module.exports = { status: res.status, version: '4.21.0' };

// A property named by a string (`try` was reserved in old engines), with an alias on its own line.
Q["try"] =
Q.fcall = function (object) {
  return object;
};
