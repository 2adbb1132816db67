// A Vue 2 application's entry point: the root instance is made from its options and mounted in
// one statement; its methods are the application's own.
import Vue from 'vue';
import App from './App.vue';
import router from './router';
import store from './store';

Vue.config.productionTip = false;

new Vue({
  router,
  store,
  data() {
    return { booted: false };
  },
  created() {
    this.$store.dispatch('session/restore');
  },
  methods: {
    reportError(error, vm, info) {
      console.error(info, error);
    }
  },
  render: h => h(App)
}).$mount('#app');

// A chain that calls what the instance returns is still the instance's statement.
new Vue({
  mounted() {
    this.$emit('ready');
  }
}).$mount('#overlay').$on('close', () => router.back());

// Bound once mounted, it is the same instance.
export const toasts = new Vue({
  methods: {
    show(message) {
      this.$emit('show', message);
    }
  }
}).$mount('#toasts');

// A constructor whose result is called at once is not an instance made of these options.
new Widget({
  draw() {}
})(document.body);
