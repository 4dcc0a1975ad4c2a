//! World of Warships `GameParams.data`: the opened params kept in Rust (the inflated pickle and
//! its index), entries handed to Python as plain values (dicts, lists, tuples, str, int, float,
//! bool, None) decoded on demand.

use gamebin::wows::params::{Entry, ParamsError, ParamsScratch, ParamsView, Value, latin1};
use pyo3::exceptions::{PyKeyError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use crate::errors::format_error;
use crate::source::Source;

/// The opened params: the inflated pickle and its index, kept for look-ups.
#[pyclass(module = "gamebin._gamebin", name = "Params", frozen)]
pub struct NativeParams {
    scratch: ParamsScratch,
}

fn params_error(py: Python<'_>, e: ParamsError) -> PyErr {
    format_error(py, e.error.offset(), e.error.what(), &e.to_string())
}

fn text(b: &[u8]) -> String {
    match core::str::from_utf8(b) {
        Ok(s) => s.to_string(),
        Err(_) => latin1(b),
    }
}

/// A Python value: objects as their state, byte strings as str (UTF-8, else latin-1), sets as
/// lists, longs of any size as int, a cycle as the string `<cycle: memo N>`.
fn to_py<'py>(py: Python<'py>, v: &Value<'_>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::None => py.None().into_bound(py),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
        Value::Int(i) => i.into_pyobject(py)?.into_any(),
        Value::BigInt(d) => py.get_type::<pyo3::types::PyInt>().call1((d.as_ref(),))?,
        Value::Float(f) => f.into_pyobject(py)?.into_any(),
        Value::Bytes(b) => text(b).into_pyobject(py)?.into_any(),
        Value::Str(s) => s.as_ref().into_pyobject(py)?.into_any(),
        Value::Tuple(items) => {
            let items: Vec<Bound<'py, PyAny>> = items
                .iter()
                .map(|i| to_py(py, i))
                .collect::<PyResult<_>>()?;
            PyTuple::new(py, items)?.into_any()
        }
        Value::List(items) | Value::Set(items) => {
            let list = PyList::empty(py);
            for i in items {
                list.append(to_py(py, i)?)?;
            }
            list.into_any()
        }
        Value::Dict(pairs) => {
            let d = PyDict::new(py);
            for (k, v) in pairs {
                d.set_item(to_py(py, k)?, to_py(py, v)?)?;
            }
            d.into_any()
        }
        Value::Object(o) => match &o.state {
            Some(state) => to_py(py, state)?,
            None => PyDict::new(py).into_any(),
        },
        Value::Global(g) => g.to_string().into_pyobject(py)?.into_any(),
        Value::Ref(id) => format!("<cycle: memo {id}>").into_pyobject(py)?.into_any(),
    })
}

fn facts<'py>(py: Python<'py>, e: &Entry<'_>) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", e.name().as_ref())?;
    d.set_item("id", e.id())?;
    d.set_item("index", e.index().as_deref())?;
    d.set_item("type", e.type_name().as_deref())?;
    d.set_item("nation", e.nation().as_deref())?;
    d.set_item("species", e.species().as_deref())?;
    d.set_item("region", e.region().as_deref())?;
    Ok(d)
}

impl NativeParams {
    fn view(&self) -> PyResult<ParamsView<'_>> {
        self.scratch
            .opened()
            .ok_or_else(|| PyRuntimeError::new_err("the params are not open"))
    }

    fn entries<'a>(view: &ParamsView<'a>, region: Option<&str>) -> PyResult<Vec<Entry<'a>>> {
        Ok(match region {
            None => view.entries().collect(),
            Some(r) => match view.region(r) {
                Some(region) => region.entries().collect(),
                None => return Err(PyKeyError::new_err(format!("no region {r:?} in the file"))),
            },
        })
    }

    fn find<'a>(
        view: &ParamsView<'a>,
        region: Option<&str>,
        f: impl Fn(&ParamsView<'a>, Option<gamebin::wows::params::Region<'a>>) -> Option<Entry<'a>>,
    ) -> PyResult<Option<Entry<'a>>> {
        match region {
            None => Ok(f(view, None)),
            Some(r) => match view.region(r) {
                Some(region) => Ok(f(view, Some(region))),
                None => Err(PyKeyError::new_err(format!("no region {r:?} in the file"))),
            },
        }
    }
}

#[pymethods]
impl NativeParams {
    /// Opens the file's bytes (inflated once and indexed; the bytes are not kept).
    #[staticmethod]
    fn open(source: &Bound<'_, Source>) -> PyResult<NativeParams> {
        let py = source.py();
        let mut scratch = ParamsScratch::default();
        {
            let this = source.borrow();
            ParamsView::from_bytes_strict(this.bytes()?, &mut scratch)
                .map_err(|e| params_error(py, e))?;
        }
        Ok(NativeParams { scratch })
    }

    /// The number of base entries.
    fn len(&self) -> PyResult<usize> {
        Ok(self.view()?.len())
    }

    /// The regions' names.
    fn regions(&self) -> PyResult<Vec<String>> {
        Ok(self
            .view()?
            .regions()
            .filter_map(|r| r.name().map(|n| n.into_owned()))
            .collect())
    }

    /// The summary (`gamebin info --json`'s fields) as a dict.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let i = self.view()?.info();
        let d = PyDict::new(py);
        d.set_item("entries", i.entries)?;
        d.set_item("protocol", i.protocol)?;
        d.set_item("root", i.root)?;
        d.set_item("pickle_len", i.pickle_len)?;
        d.set_item("by_type", i.by_type.into_pyobject(py)?)?;
        d.set_item("regions", i.regions.into_pyobject(py)?)?;
        Ok(d)
    }

    /// Every entry's facts (name, id, index, type, nation, species, region), in order, those of
    /// `region` laid over the base when given, filtered by type, nation and species (exact).
    #[pyo3(signature = (region=None, r#type=None, nation=None, species=None))]
    fn listing<'py>(
        &self,
        py: Python<'py>,
        region: Option<&str>,
        r#type: Option<&str>,
        nation: Option<&str>,
        species: Option<&str>,
    ) -> PyResult<Bound<'py, PyList>> {
        let view = self.view()?;
        let out = PyList::empty(py);
        for e in Self::entries(&view, region)? {
            let keep = |want: Option<&str>, have: Option<std::borrow::Cow<'_, str>>| {
                want.is_none_or(|w| have.as_deref() == Some(w))
            };
            if keep(r#type, e.type_name()) && keep(nation, e.nation()) && keep(species, e.species())
            {
                out.append(facts(py, &e)?)?;
            }
        }
        Ok(out)
    }

    /// The value of the entry named `name` (None when there is none).
    #[pyo3(signature = (name, region=None))]
    fn by_name<'py>(
        &self,
        py: Python<'py>,
        name: &str,
        region: Option<&str>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let view = self.view()?;
        let e = Self::find(&view, region, |v, r| match r {
            Some(r) => r.by_name(name),
            None => v.by_name(name),
        })?;
        e.map(|e| value(py, &e)).transpose()
    }

    /// The value of the entry whose `id` is `id`.
    #[pyo3(signature = (id, region=None))]
    fn by_id<'py>(
        &self,
        py: Python<'py>,
        id: u32,
        region: Option<&str>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let view = self.view()?;
        let e = Self::find(&view, region, |v, r| match r {
            Some(r) => r.by_id(id),
            None => v.by_id(id),
        })?;
        e.map(|e| value(py, &e)).transpose()
    }

    /// The value of the entry whose `index` is `index`.
    #[pyo3(signature = (index, region=None))]
    fn by_index<'py>(
        &self,
        py: Python<'py>,
        index: &str,
        region: Option<&str>,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let view = self.view()?;
        let e = Self::find(&view, region, |v, r| match r {
            Some(r) => r.by_index(index),
            None => v.by_index(index),
        })?;
        e.map(|e| value(py, &e)).transpose()
    }
}

fn value<'py>(py: Python<'py>, e: &Entry<'_>) -> PyResult<Bound<'py, PyAny>> {
    let v = e.value().map_err(|err| params_error(py, err))?;
    to_py(py, &v)
}
