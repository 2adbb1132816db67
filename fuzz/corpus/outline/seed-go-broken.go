package queue

type Job struct {
	ID       string
	Attempts int
}

func (j *Job) Retry() bool {
	if j.Attempts < 3 {
		j.Attempts++
		return true
	
	return false
}

func New(id string) *Job {
	return &Job{ID: id}
}
