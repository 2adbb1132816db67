import Vue from 'vue';
import Vuex from 'vuex';
import api from './api';

Vue.use(Vuex);

// A Vue 2 application's shared state and global parts, each built from the options object it
// is given: a Vuex store, an event bus, a registered component and a directive.
export default new Vuex.Store({
  strict: process.env.NODE_ENV !== 'production',
  state: {
    todos: [],
    filter: 'all'
  },
  getters: {
    done: state => state.todos.filter(todo => todo.done),
    remaining(state, getters) {
      return state.todos.length - getters.done.length;
    }
  },
  mutations: {
    add(state, todo) {
      state.todos.push(todo);
    },
    toggle(state, todo) {
      todo.done = !todo.done;
    }
  },
  actions: {
    async load({ commit }) {
      const todos = await api.todos();
      todos.forEach(todo => commit('add', todo));
    }
  }
});

export const bus = new Vue({
  methods: {
    notify(message, level = 'info') {
      this.$emit('notify', { message, level });
    }
  }
});

Vue.component('todo-item', {
  props: ['todo'],
  template: '<li :class="{ done: todo.done }" @click="toggle">{{ todo.text }}</li>',
  methods: {
    toggle() {
      this.$store.commit('toggle', this.todo);
    }
  }
});

Vue.directive('autofocus', {
  inserted(el) {
    el.focus();
  }
});

new Vue({
  el: '#app',
  render: h => h('todo-list')
});

// A handler given to a constructor after its subject is not the instance's methods.
export const settings = new Proxy({}, {
  set(target, key, value) {
    target[key] = value;
    return true;
  }
});
