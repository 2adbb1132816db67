import Emitter from '../mixins/emitter';
import { addResizeListener, removeResizeListener } from '../utils/resize-event';

// A Vue 2 component written with the options API: everything it offers is in the one object
// it exports by default.
export default {
  name: 'ElCollapseItem',

  componentName: 'ElCollapseItem',

  mixins: [Emitter],

  props: {
    title: String,
    name: {
      type: [String, Number],
      default() {
        return this._uid;
      }
    },
    disabled: Boolean
  },

  inject: ['collapse'],

  data() {
    return {
      contentWrapStyle: { height: 'auto', display: 'block' },
      contentHeight: 0,
      focusing: false,
      isClick: false
    };
  },

  computed: {
    isActive() {
      return this.collapse.activeNames.indexOf(this.name) > -1;
    },
    id: function () {
      return 'el-collapse-' + this.name;
    }
  },

  watch: {
    isActive(value) {
      this.$emit('toggle', value);
    }
  },

  methods: {
    handleFocus() {
      setTimeout(() => {
        if (!this.isClick) {
          this.focusing = true;
        } else {
          this.isClick = false;
        }
      }, 50);
    },
    handleHeaderClick() {
      if (this.disabled) return;
      this.dispatch('ElCollapse', 'item-click', this);
      this.focusing = false;
      this.isClick = true;
    },
    handleEnterClick: function () {
      this.dispatch('ElCollapse', 'item-click', this);
    }
  },

  mounted() {
    addResizeListener(this.$el, this.handleFocus);
  },

  beforeDestroy() {
    removeResizeListener(this.$el, this.handleFocus);
  }
};
