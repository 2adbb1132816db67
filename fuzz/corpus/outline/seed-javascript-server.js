// HTTP server for the demo app.
'use strict';

const http = require('http');
const { readFile } = require('fs/promises');
import express from 'express';
import { Router, json } from 'express';

const PORT = 8080;
const NOT_A_COMMENT = "// keep me";

/**
 * Handles a request.
 */
function handle(req, res, next = () => {}) {
  res.end('ok');
}

async function* lines(stream) {
  for await (const chunk of stream) yield chunk;
}

const middleware = async (req, res) => {
  await next();
};

export const shutdown = function (server) {
  server.close();
};

class Server extends EventEmitter {
  #port = PORT;

  constructor(port) {
    super();
    this.#port = port;
  }

  static create(port = PORT) {
    return new Server(port);
  }

  get port() {
    return this.#port;
  }

  async listen() {
    /* start listening */
    return http.createServer(handle).listen(this.#port);
  }
}

export default class Client {
  request(path) {
    return fetch(path);
  }
}

module.exports = { Server, handle };
