// Types written before classes, in Backbone's and jQuery's style: a constructor, then its methods
// mixed into its prototype by a call.
var Events = {};

var Model = Backbone.Model = function (attributes, options) {
  this.attributes = {};
  this.set(attributes, options);
};

_.extend(Model.prototype, Events, {
  idAttribute: 'id',

  initialize: function () {},

  /** The attributes, copied, for JSON.stringify. */
  toJSON: function (options) {
    return _.clone(this.attributes);
  },

  'get': function (attr) {
    return this.attributes[attr];
  },

  set(key, val, options) {
    this.attributes[key] = val;
    return this;
  },

  fetch: async (options) => {
    return options;
  }
});

jQuery.fn.extend({
  css: function (name, value) {
    return access(this, name, value);
  },
  show: function () {
    return showHide(this, true);
  }
});

// Values merged, not methods: no type's API.
Object.assign(Store.prototype, { version: 3 });
$.extend(settings, { timeout: 100 });

function setup(local) {
  // Inside a function, a mixin is the function's detail.
  _.extend(local, { helper: function () {} });
}

// An object of methods given to a prototype, with an alias (jQuery's `jQuery.fn = jQuery.prototype
// = { … }`), or to a CommonJS export.
function Store(options) {
  this.options = options;
}

Store.fn = Store.prototype = {
  constructor: Store,
  get: function (key) {
    return this.options[key];
  },
  clear() {}
};

module.exports = {
  parse(text) {
    return JSON.parse(text);
  },
  // Loaded on first use, under the paths they are serialized by.
  'cache/PackFileCache': () => require('./cache/PackFileCache'),
  'cache/MemoryCache': () => require('./cache/MemoryCache'),
  VERSION: '1.0.0'
};

// A namespace: an object of functions bound to a name. Its data is not listed, nor an object
// without functions.
var Utils = {
  trim: function (text) {
    return text.replace(/^\s+|\s+$/g, '');
  },
  pad(text, width) {
    return text + ' '.repeat(width - text.length);
  },
  get width() {
    return this._width;
  },
  set width(value) {
    this._width = value;
  },
  'escape'(text) {
    return text.replace(/[<>&]/g, '');
  },
  separator: ','
};

var defaults = { retries: 3 };
