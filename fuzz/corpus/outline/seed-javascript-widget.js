// A web component with public and private class fields (ES2022).
import { html, render } from "lit-html";

export class CounterWidget extends HTMLElement {
  static observedAttributes = ["count", "step"];
  static defaults = { count: 0, step: 1 };
  count = CounterWidget.defaults.count;
  step = 1;
  #shadow = this.attachShadow({ mode: "open" });
  #clicks = 0;

  connectedCallback() {
    this.render();
  }

  attributeChangedCallback(name, oldValue, newValue) {
    this[name] = Number(newValue);
    this.render();
  }

  render() {
    render(html`<button @click=${() => this.#increment()}>${this.count}</button>`, this.#shadow);
  }

  #increment() {
    this.#clicks += 1;
    this.count += this.step;
  }
}

customElements.define("counter-widget", CounterWidget);
