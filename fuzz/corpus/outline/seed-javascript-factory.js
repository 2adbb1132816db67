/**
 * A library in lodash's style: the module calls a factory once and exports what it returns, and
 * every public function is declared inside the factory, so other realms can build their own copy.
 */
;(function () {
  'use strict';

  var root = typeof self == 'object' && self ? self : this;

  /** A helper the module keeps for itself. */
  function baseIdentity(value) {
    return value;
  }

  /** Builds the library for `context` (a window or a Node global). */
  var runInContext = (function runInContext(context) {
    context = context == null ? root : context;
    var Date = context.Date,
        nativeMax = context.Math.max;
    var isArray = function (value) {
      return Array.isArray(value);
    };

    /** Splits `array` into groups of `size`. */
    function chunk(array, size) {
      var result = [];
      for (var index = 0; index < array.length; index += size) {
        result.push(array.slice(index, index + size));
      }
      return result;
    }

    function compact(array) {
      return array.filter(Boolean);
    }

    /** Delays `func` until `wait` ms have passed since the last call. */
    function debounce(func, wait, options) {
      var timerId, lastArgs;
      function invokeFunc() {
        var args = lastArgs;
        lastArgs = undefined;
        return func.apply(undefined, args);
      }
      function trailingEdge() {
        timerId = undefined;
        return invokeFunc();
      }
      return function debounced() {
        lastArgs = arguments;
        clearTimeout(timerId);
        timerId = setTimeout(trailingEdge, nativeMax(wait, 0));
      };
    }

    function throttle(func, wait) {
      return debounce(func, wait, { maxWait: wait });
    }

    function flatten(array) {
      return [].concat.apply([], array);
    }

    function memoize(func, resolver) {
      var memoized = function () {
        var key = resolver ? resolver.apply(this, arguments) : arguments[0];
        if (!memoized.cache.has(key)) {
          memoized.cache.set(key, func.apply(this, arguments));
        }
        return memoized.cache.get(key);
      };
      memoized.cache = new Map();
      return memoized;
    }

    function noop() {}

    function once(func) {
      var called = false, result;
      return function () {
        if (!called) {
          called = true;
          result = func.apply(this, arguments);
        }
        return result;
      };
    }

    function range(start, end, step) {
      var result = [];
      for (var value = start; value < end; value += step || 1) {
        result.push(value);
      }
      return result;
    }

    function times(n, iteratee) {
      return range(0, n).map(iteratee || baseIdentity);
    }

    function uniq(array) {
      return Array.from(new Set(array));
    }

    function now() {
      return Date.now();
    }

    /** The library's own function: wraps `value` for chaining. */
    function lodash(value) {
      return value;
    }

    lodash.chunk = chunk;
    lodash.compact = compact;
    lodash.debounce = debounce;
    lodash.throttle = throttle;
    lodash.memoize = memoize;
    lodash.now = now;
    return lodash;
  });

  /** A function with a few helpers of its own, which stay its detail. */
  function install(target) {
    function define(name, value) {
      Object.defineProperty(target, name, { value: value });
    }
    function alias(from, to) {
      define(to, target[from]);
    }
    define('VERSION', '4.17.21');
    alias('each', 'forEach');
  }

  var _ = runInContext();
  install(_);
  root._ = _;

  /** Ten declared functions make a factory; nine do not. */
  function ten() {
    function t1() {} function t2() {} function t3() {} function t4() {} function t5() {}
    function t6() {} function t7() {} function t8() {} function t9() {} function t10() {}
  }

  function nine() {
    function n1() {} function n2() {} function n3() {} function n4() {} function n5() {}
    function n6() {} function n7() {} function n8() {} function n9() {}
  }
}.call(this));
