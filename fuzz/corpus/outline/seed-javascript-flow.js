/* @flow */

import type Router from '../index'
import { inBrowser } from './dom'
import { cleanPath } from './path'

// A history that lives in the URL's hash, as a router written with Flow's annotations has it.

export type RouteRecord = {
  path: string,
  regex: RegExp,
  components: Dictionary<any>,
  parent: ?RouteRecord,
  meta: any
}

export type NavigationGuard = (to: Route, from: Route, next: (to?: RawLocation | false | void) => void) => any

export class HashHistory extends History {
  base: string
  pending: ?Route

  constructor (router: Router, base: ?string, fallback: boolean) {
    super(router, base)
    if (fallback && checkFallback(this.base)) {
      return
    }
    ensureSlash()
  }

  setupListeners () {
    if (this.listeners.length > 0) {
      return
    }
    const handleRoutingEvent = () => {
      ensureSlash()
    }
    window.addEventListener('hashchange', handleRoutingEvent)
  }

  push (location: RawLocation, onComplete?: Function, onAbort?: Function) {
    this.transitionTo(location, route => {
      pushHash(route.fullPath)
      onComplete && onComplete(route)
    }, onAbort)
  }

  getCurrentLocation (): string {
    return getHash()
  }
}

function checkFallback (base: string): ?boolean {
  const location = getLocation(base)
  if (!/^\/#/.test(location)) {
    window.location.replace(cleanPath(base + '/#' + location))
    return true
  }
}

function ensureSlash (): boolean {
  const path = getHash()
  if (path.charAt(0) === '/') {
    return true
  }
  replaceHash('/' + path)
  return false
}

export function getHash (): string {
  let href = window.location.href
  const index = href.indexOf('#')
  if (index < 0) return ''
  return href.slice(index + 1)
}

function pushHash (path: string) {
  if (inBrowser) {
    window.location.hash = path
  }
}
