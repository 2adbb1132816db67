import { __extends } from "tslib";
import { Subscription } from "./Subscription";

// A class as TypeScript compiles it to ES5: a function called at once builds it, declaring its
// constructor and assigning its methods to the prototype.
var Subscriber = /** @class */ (function (_super) {
    __extends(Subscriber, _super);
    function Subscriber(destination) {
        var _this = _super.call(this) || this;
        _this.destination = destination;
        return _this;
    }
    Subscriber.create = function (next, error, complete) {
        return new SafeSubscriber(next, error, complete);
    };
    Subscriber.prototype.next = function (value) {
        this._next(value);
    };
    Subscriber.prototype.unsubscribe = function () {
        _super.prototype.unsubscribe.call(this);
    };
    return Subscriber;
}(Subscription));
export { Subscriber };

// A closure that keeps a helper private builds no class: its helper is its detail.
var baseCreate = (function () {
    function object() {}
    return function (proto) {
        object.prototype = proto;
        var result = new object();
        object.prototype = undefined;
        return result;
    };
}());

export default baseCreate;
