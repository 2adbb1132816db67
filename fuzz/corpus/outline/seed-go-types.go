// Package api holds the resource types, Kubernetes style.
package api

import (
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ObjectMeta is metadata every persisted resource has.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
	CreatedAt   time.Time         `json:"createdAt"`
	uid         string
}

// Pod is a group of containers scheduled together.
type Pod struct {
	metav1.TypeMeta `json:",inline"`
	ObjectMeta      `json:"metadata"`
	*sync.Mutex

	Spec, Status string
	cache        map[string]int
}

// Store reads pods from a cache.
type Store interface {
	Indexer
	Get(namespace, name string) (*Pod, error)
	List(selector Selector) ([]*Pod, error)
	resync() error
}

type podList struct {
	items []Pod
}

func (p *Pod) Key() string { return p.Namespace + "/" + p.Name }
