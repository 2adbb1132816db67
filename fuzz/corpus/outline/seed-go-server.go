// Package server exposes a tiny HTTP API.
package server

import (
	"context"
	"fmt"
	nethttp "net/http"
)

import "sync"

const (
	DefaultPort = 8080
	maxConns    = 64
)

var ErrClosed = fmt.Errorf("server closed // not a comment")

// Handler handles one request.
type Handler interface {
	ServeHTTP(w nethttp.ResponseWriter, r *nethttp.Request)
	Name() string
}

type Server[T any] struct {
	mu    sync.Mutex
	addr  string
	state T
}

type Option func(*Server[any])

type ID = int64

// New creates a server.
func New[T any](addr string, opts ...Option) *Server[T] {
	return &Server[T]{addr: addr}
}

func (s *Server[T]) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return nil
}

func (s Server[T]) Addr() string { return s.addr }

func (c *client) Close() error { return nil }

type client struct{}

func helper(a, b int) (int, error) {
	return a + b, nil
}
