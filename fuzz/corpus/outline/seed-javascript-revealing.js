/**
 * Modules written before ES modules: each is a function called at once that keeps its state in
 * its closure and returns its API as an object.
 */
var ShoppingCart = (function () {
  'use strict';

  var items = [];
  var TAX_RATE = 0.2;

  function findIndex(sku) {
    for (var i = 0; i < items.length; i++) {
      if (items[i].sku === sku) return i;
    }
    return -1;
  }

  function add(sku, quantity) {
    var at = findIndex(sku);
    if (at >= 0) {
      items[at].quantity += quantity;
    } else {
      items.push({ sku: sku, quantity: quantity });
    }
  }

  function remove(sku) {
    var at = findIndex(sku);
    if (at >= 0) items.splice(at, 1);
  }

  // The public API.
  return {
    add: add,
    remove: remove,
    total: function (prices) {
      return items.reduce(function (sum, item) {
        return sum + prices[item.sku] * item.quantity;
      }, 0) * (1 + TAX_RATE);
    }
  };
})();

const Logger = (() => {
  const prefix = '[app]';
  function log(message) {
    console.log(prefix, message);
  }
  return { log };
})();

// Or it builds its API under a name and returns that (lz-string's shape).
var Codec = (function () {
  var cache = {};

  function lookup(alphabet, character) {
    if (!cache[alphabet]) {
      cache[alphabet] = alphabet.split('');
    }
    return cache[alphabet].indexOf(character);
  }

  var Codec = {
    encode: function (input) {
      return input.split('').map(function (c) { return lookup('abc', c); }).join(',');
    },
    decode: function (input) {
      return input.split(',').map(Number);
    }
  };
  return Codec;
})();

// Its functions may be bound to names, and its API built up on an object it returns.
var Store = (function () {
  var state = {};
  var read = function (key) {
    return state[key];
  };
  var api = {};
  api.get = read;
  api.set = function (key, value) {
    state[key] = value;
  };
  return api;
})();

// A bundle's module fills in the object it is given (Rollup's IIFE output).
var Lib = (function (exports) {
  function h(tag, props) {
    return { tag: tag, props: props };
  }
  exports.h = h;
  return exports;
})({});

// A function called at once for a value is not a module, even with helpers inside: it returns
// what it computed, an object of data, or a promise.
export const supported = (() => {
  function probe(name) {
    return typeof globalThis[name] === 'function';
  }
  const ok = probe('fetch');
  return ok;
})();

const theme = (() => {
  function px(n) {
    return n * 4 + 'px';
  }
  return { small: px(1), large: px(4) };
})();

const ready = (async () => {
  function wait(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
  }
  return { waited: await wait(10) };
})();

var startedAt = (function () {
  return Date.now();
})();

// Nor is one that returns data it built, or what it was given when that is not an object.
const config = (() => {
  function env(key) {
    return process.env[key];
  }
  const config = { port: env('PORT') };
  return config;
})();

var doubled = (function (n) {
  function twice(x) {
    return x * 2;
  }
  n = twice(n);
  return n;
})(21);

// One that declares a function and returns it is not a module either, but the name is that
// function's (a bundler's wrapper around one API function).
var createThunk = (() => {
  function createThunk2(type, payloadCreator) {
    return function thunk(arg) {
      return payloadCreator(arg, { type: type });
    };
  }
  createThunk2.withTypes = () => createThunk2;
  return createThunk2;
})();

// A class it returns makes the name a class's, with the functions the wrapper assigns to it;
// a name bound to a value after a function of that name is not a function.
var Queue = (function () {
  class Queue2 extends EventEmitter {
    push(item) {}
  }
  Queue2.prototype.drain = function (limit) {};
  Queue2.of = function (items) {};
  Queue2.VERSION = 2;
  return Queue2;
})();

var limit = (function () {
  function limit2() {}
  var limit2 = 5;
  return limit2;
})();

// Nor is one that declares nothing and returns a name.
var origin = (function () {
  var here = window.location;
  return here;
})();

// A class it returns as written, with its getters, static fields and methods (a private field is
// not API).
var Channel = (function () {
  var opened = 0;
  return class {
    static capacity = 8;
    #buffer = [];
    get size() {
      return this.#buffer.length;
    }
    send(message) {
      opened++;
      this.#buffer.push(message);
    }
    #flush() {}
  };
})();

// A binding runs after every function declaration is hoisted: the name ends up the class.
var Parser = (function () {
  var Parser2 = class {
    parse(text) {}
  };
  function Parser2() {}
  return Parser2;
})();

// Nor does an async function's class make a name a class: it is a promise.
var pending = (async function () {
  class Later {}
  return Later;
})();

// Nor does one whose function is replaced by what a call gives.
var parser = (function () {
  function parse2(text) {}
  parse2 = wrap(parse2);
  return parse2;
})();

// A constructor function it returns, given prototype methods, is a class written before classes,
// whatever name the wrapper gives it.
var Deque = (function () {
  function Deque2(items) {
    this.items = items;
  }
  Deque2.prototype.shift = function () {
    return this.items.shift();
  };
  Deque2.from = function (items) {
    return new Deque2(items);
  };
  return Deque2;
})();

// Minified, the head still reads `name = function (…)`.
var minified=(function(){return function(t,n,r){return t}})();

module.exports = { ShoppingCart, Logger, Codec, Store, Lib, theme, ready, config, doubled, createThunk, Queue, limit, startedAt, origin, Channel, Parser, pending, parser, Deque, minified };
