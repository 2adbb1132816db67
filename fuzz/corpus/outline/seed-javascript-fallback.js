/*
	MIT License http://www.opensource.org/licenses/mit-license.php
*/

"use strict";

const Dependency = require("../Dependency");

// Caught mid-edit: the constructor lost its closing brace, so the methods after it parse as
// calls and blocks in its body, closed by the braces of the methods that follow.
class FallbackDependency extends Dependency {
	constructor(requests) {
		super();
		this.requests = requests;
	

	getResourceIdentifier() {
		return `fallback ${this.requests.join(" ")}`;
	}

	get type() {
		return "fallback";
	}

	get category() {
		return "esm";
	}

	serialize(context) {
		context.write(this.requests);
		super.serialize(context);
	}
}

module.exports = FallbackDependency;
