//! The graph's files numbered in path order, once per version of the graph: the file graph and
//! the test links it caches keep their edges as these numbers (4 bytes each) instead of copies of
//! the paths, and a number's order is its path's.

/// Every file of one version of the graph, sorted: a file's number is its place here.
#[derive(Debug)]
pub(crate) struct FileIds(Vec<String>);

impl FileIds {
    /// `files` must be sorted and distinct (a graph's keys are).
    pub(crate) fn new(files: Vec<String>) -> FileIds {
        debug_assert!(files.windows(2).all(|pair| pair[0] < pair[1]), "file ids are numbered in path order");
        FileIds(files)
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The number of `file`; `None` for a file not in this version of the graph.
    pub(crate) fn id(&self, file: &str) -> Option<u32> {
        self.0.binary_search_by(|probe| probe.as_str().cmp(file)).ok().map(|at| at as u32)
    }

    pub(crate) fn name(&self, id: u32) -> &String {
        &self.0[id as usize]
    }
}
