//! The legalization passes as a library (issue 27, item 4): being written.
