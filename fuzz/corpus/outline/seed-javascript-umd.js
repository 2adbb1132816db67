//! A small date library in the universal module style: the outer function only decides how to
//! export, and the module itself is the factory passed to it.
;(function (global, factory) {
  typeof exports === 'object' && typeof module !== 'undefined'
    ? (module.exports = factory())
    : typeof define === 'function' && define.amd
      ? define(factory)
      : (global.tiny = factory());
}(this, (function () {
  'use strict';

  var hookCallback;

  function hooks() {
    return hookCallback.apply(null, arguments);
  }

  /** Whether `input` is a plain object (not null, not an array). */
  function isObject(input) {
    return input != null && Object.prototype.toString.call(input) === '[object Object]';
  }

  function createLocal(input, format) {
    return new Moment({ input: input, format: format, isUTC: false });
  }

  function Moment(config) {
    this._d = new Date(config.input);
    this._isUTC = config.isUTC;
  }

  Moment.prototype.format = function format(pattern) {
    return pattern.replace('YYYY', String(this._d.getFullYear()));
  };

  hooks.version = '2.30.1';
  hooks.isObject = isObject;

  // A module inside the module: what it assigns is at module level too.
  (function () {
    hooks.locale = function locale(key) {
      return key;
    };
  })();
  return hooks;
})));

// jQuery's shape: the factory is the second argument, and the wrapper's own helpers are glue.
( function( global, factory ) {
  function noConflict() {}
  module.exports = factory( global, true );
} )( typeof window !== "undefined" ? window : this, function( window, noGlobal ) {
  var arr = [];

  function isArrayLike( obj ) {
    return !!obj && "length" in obj;
  }

  var jQuery = function( selector, context ) {
    return new jQuery.fn.init( selector, context );
  };

  return jQuery;
} );

// An AMD module (jQuery's sources): the module is the function given to `define`.
define( [ "./core", "./var/isFunction" ], function( jQuery, isFunction ) {
  function adoptValue( value, resolve, reject ) {
    return isFunction( value ) ? value.then( resolve, reject ) : resolve( value );
  }
  return jQuery;
} );

// Another function called with a callback is not a module: the callback's helpers are its own.
ready( function() {
  function later() {}
  later();
} );

// A function called at once with a callback it does not call by name: the module is its own body.
(function (done) {
  function api() {}
  setTimeout(api, 0, done);
})(function () {
  function finished() {}
});

// A module given a small stub for what it requires: the stub is no module.
(function (require, module) {
  var parse = require('esprima').parse;
  function insertHelpers(node) {
    node.parent = null;
  }
  module.exports = insertHelpers;
})(function () { return { parse: null }; }, { exports: {} });
