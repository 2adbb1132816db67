// Package handlers serves the status pages.
package handlers

import (
	"errors"
	"net/http"
)

// Page is one rendered status page.
type Page struct {
	Title string
	Body  []byte
}

// ErrNotFound is returned when no page has the name.
var ErrNotFound = errors.New("handlers: no page of that name in the store")

// Render writes the page.
func (p *Page) Render(w http.ResponseWriter) error {
	_, err := w.Write(p.Body)
	return err
}

// ErrGone is returned for a page that was removed.
var ErrGone = errors.New("handlers: the page was removed from the store")

func healthz(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

func readyz(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}

func livez(w http.ResponseWriter, r *http.Request) {
	w.WriteHeader(http.StatusOK)
}
