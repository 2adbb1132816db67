/*!
 * A browser library in the old style: one function, called at once, wraps the module.
 */
;(function (root) {
  'use strict';

  var VERSION = '1.2.0';

  /** Calls `fn` once `wait` ms have passed without another call. */
  function debounce(fn, wait) {
    var timer;
    function later() {
      fn();
    }
    return function () {
      clearTimeout(timer);
      timer = setTimeout(later, wait);
    };
  }

  /** Calls `fn` at most once every `wait` ms. */
  function throttle(fn, wait) {
    var last = 0;
    return function () {
      var now = Date.now();
      if (now - last >= wait) {
        last = now;
        fn();
      }
    };
  }

  root.Tools = { VERSION: VERSION, debounce: debounce, throttle: throttle };
}.call(this));

!function () {
  function ready(callback) {
    document.addEventListener('DOMContentLoaded', callback);
  }
  ready(function start() {});
}();

// A call of a function that is not invoked at once: its callback's helpers are its own.
describe('tools', function () {
  function fixture() {}
});
