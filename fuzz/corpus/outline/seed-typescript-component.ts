import { computed, defineComponent, h, type PropType } from 'vue'
import { defineStore } from 'pinia'

// A render-function component and a store, each built by a call from the options it is given.

export const badgeProps = {
  value: [String, Number] as PropType<string | number>,
  max: Number,
  dot: Boolean
} as const

export default defineComponent({
  name: 'Badge',
  props: badgeProps,
  emits: ['click'],
  setup(props, { emit }) {
    const shown = computed(() => {
      if (props.dot) return ''
      const value = Number(props.value)
      return props.max !== undefined && value > props.max ? `${props.max}+` : String(props.value)
    })
    const handleClick = (event: MouseEvent): void => {
      emit('click', event)
    }
    return { shown, handleClick }
  },
  render() {
    return h('sup', { class: 'badge', onClick: this.handleClick }, this.shown)
  }
})

export const useNotifications = defineStore('notifications', {
  state: () => ({ items: [] as string[], muted: false }),
  getters: {
    count: (state): number => state.items.length,
    latest(state): string | undefined {
      return state.items[state.items.length - 1]
    }
  },
  actions: {
    push(message: string) {
      if (!this.muted) this.items.push(message)
    },
    clear() {
      this.items = []
    }
  }
})
