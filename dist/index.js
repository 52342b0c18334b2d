import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 3964:
/***/ ((module) => {



module.exports = clone

var getPrototypeOf = Object.getPrototypeOf || function (obj) {
  return obj.__proto__
}

function clone (obj) {
  if (obj === null || typeof obj !== 'object')
    return obj

  if (obj instanceof Object)
    var copy = { __proto__: getPrototypeOf(obj) }
  else
    var copy = Object.create(null)

  Object.getOwnPropertyNames(obj).forEach(function (key) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(obj, key))
  })

  return copy
}


/***/ }),

/***/ 5744:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

var fs = __nccwpck_require__(9896)
var polyfills = __nccwpck_require__(3501)
var legacy = __nccwpck_require__(2270)
var clone = __nccwpck_require__(3964)

var util = __nccwpck_require__(9023)

/* istanbul ignore next - node 0.x polyfill */
var gracefulQueue
var previousSymbol

/* istanbul ignore else - node 0.x polyfill */
if (typeof Symbol === 'function' && typeof Symbol.for === 'function') {
  gracefulQueue = Symbol.for('graceful-fs.queue')
  // This is used in testing by future versions
  previousSymbol = Symbol.for('graceful-fs.previous')
} else {
  gracefulQueue = '___graceful-fs.queue'
  previousSymbol = '___graceful-fs.previous'
}

function noop () {}

function publishQueue(context, queue) {
  Object.defineProperty(context, gracefulQueue, {
    get: function() {
      return queue
    }
  })
}

var debug = noop
if (util.debuglog)
  debug = util.debuglog('gfs4')
else if (/\bgfs4\b/i.test(process.env.NODE_DEBUG || ''))
  debug = function() {
    var m = util.format.apply(util, arguments)
    m = 'GFS4: ' + m.split(/\n/).join('\nGFS4: ')
    console.error(m)
  }

// Once time initialization
if (!fs[gracefulQueue]) {
  // This queue can be shared by multiple loaded instances
  var queue = global[gracefulQueue] || []
  publishQueue(fs, queue)

  // Patch fs.close/closeSync to shared queue version, because we need
  // to retry() whenever a close happens *anywhere* in the program.
  // This is essential when multiple graceful-fs instances are
  // in play at the same time.
  fs.close = (function (fs$close) {
    function close (fd, cb) {
      return fs$close.call(fs, fd, function (err) {
        // This function uses the graceful-fs shared queue
        if (!err) {
          resetQueue()
        }

        if (typeof cb === 'function')
          cb.apply(this, arguments)
      })
    }

    Object.defineProperty(close, previousSymbol, {
      value: fs$close
    })
    return close
  })(fs.close)

  fs.closeSync = (function (fs$closeSync) {
    function closeSync (fd) {
      // This function uses the graceful-fs shared queue
      fs$closeSync.apply(fs, arguments)
      resetQueue()
    }

    Object.defineProperty(closeSync, previousSymbol, {
      value: fs$closeSync
    })
    return closeSync
  })(fs.closeSync)

  if (/\bgfs4\b/i.test(process.env.NODE_DEBUG || '')) {
    process.on('exit', function() {
      debug(fs[gracefulQueue])
      __nccwpck_require__(2613).equal(fs[gracefulQueue].length, 0)
    })
  }
}

if (!global[gracefulQueue]) {
  publishQueue(global, fs[gracefulQueue]);
}

module.exports = patch(clone(fs))
if (process.env.TEST_GRACEFUL_FS_GLOBAL_PATCH && !fs.__patched) {
    module.exports = patch(fs)
    fs.__patched = true;
}

function patch (fs) {
  // Everything that references the open() function needs to be in here
  polyfills(fs)
  fs.gracefulify = patch

  fs.createReadStream = createReadStream
  fs.createWriteStream = createWriteStream
  var fs$readFile = fs.readFile
  fs.readFile = readFile
  function readFile (path, options, cb) {
    if (typeof options === 'function')
      cb = options, options = null

    return go$readFile(path, options, cb)

    function go$readFile (path, options, cb, startTime) {
      return fs$readFile(path, options, function (err) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([go$readFile, [path, options, cb], err, startTime || Date.now(), Date.now()])
        else {
          if (typeof cb === 'function')
            cb.apply(this, arguments)
        }
      })
    }
  }

  var fs$writeFile = fs.writeFile
  fs.writeFile = writeFile
  function writeFile (path, data, options, cb) {
    if (typeof options === 'function')
      cb = options, options = null

    return go$writeFile(path, data, options, cb)

    function go$writeFile (path, data, options, cb, startTime) {
      return fs$writeFile(path, data, options, function (err) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([go$writeFile, [path, data, options, cb], err, startTime || Date.now(), Date.now()])
        else {
          if (typeof cb === 'function')
            cb.apply(this, arguments)
        }
      })
    }
  }

  var fs$appendFile = fs.appendFile
  if (fs$appendFile)
    fs.appendFile = appendFile
  function appendFile (path, data, options, cb) {
    if (typeof options === 'function')
      cb = options, options = null

    return go$appendFile(path, data, options, cb)

    function go$appendFile (path, data, options, cb, startTime) {
      return fs$appendFile(path, data, options, function (err) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([go$appendFile, [path, data, options, cb], err, startTime || Date.now(), Date.now()])
        else {
          if (typeof cb === 'function')
            cb.apply(this, arguments)
        }
      })
    }
  }

  var fs$copyFile = fs.copyFile
  if (fs$copyFile)
    fs.copyFile = copyFile
  function copyFile (src, dest, flags, cb) {
    if (typeof flags === 'function') {
      cb = flags
      flags = 0
    }
    return go$copyFile(src, dest, flags, cb)

    function go$copyFile (src, dest, flags, cb, startTime) {
      return fs$copyFile(src, dest, flags, function (err) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([go$copyFile, [src, dest, flags, cb], err, startTime || Date.now(), Date.now()])
        else {
          if (typeof cb === 'function')
            cb.apply(this, arguments)
        }
      })
    }
  }

  var fs$readdir = fs.readdir
  fs.readdir = readdir
  var noReaddirOptionVersions = /^v[0-5]\./
  function readdir (path, options, cb) {
    if (typeof options === 'function')
      cb = options, options = null

    var go$readdir = noReaddirOptionVersions.test(process.version)
      ? function go$readdir (path, options, cb, startTime) {
        return fs$readdir(path, fs$readdirCallback(
          path, options, cb, startTime
        ))
      }
      : function go$readdir (path, options, cb, startTime) {
        return fs$readdir(path, options, fs$readdirCallback(
          path, options, cb, startTime
        ))
      }

    return go$readdir(path, options, cb)

    function fs$readdirCallback (path, options, cb, startTime) {
      return function (err, files) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([
            go$readdir,
            [path, options, cb],
            err,
            startTime || Date.now(),
            Date.now()
          ])
        else {
          if (files && files.sort)
            files.sort()

          if (typeof cb === 'function')
            cb.call(this, err, files)
        }
      }
    }
  }

  if (process.version.substr(0, 4) === 'v0.8') {
    var legStreams = legacy(fs)
    ReadStream = legStreams.ReadStream
    WriteStream = legStreams.WriteStream
  }

  var fs$ReadStream = fs.ReadStream
  if (fs$ReadStream) {
    ReadStream.prototype = Object.create(fs$ReadStream.prototype)
    ReadStream.prototype.open = ReadStream$open
  }

  var fs$WriteStream = fs.WriteStream
  if (fs$WriteStream) {
    WriteStream.prototype = Object.create(fs$WriteStream.prototype)
    WriteStream.prototype.open = WriteStream$open
  }

  Object.defineProperty(fs, 'ReadStream', {
    get: function () {
      return ReadStream
    },
    set: function (val) {
      ReadStream = val
    },
    enumerable: true,
    configurable: true
  })
  Object.defineProperty(fs, 'WriteStream', {
    get: function () {
      return WriteStream
    },
    set: function (val) {
      WriteStream = val
    },
    enumerable: true,
    configurable: true
  })

  // legacy names
  var FileReadStream = ReadStream
  Object.defineProperty(fs, 'FileReadStream', {
    get: function () {
      return FileReadStream
    },
    set: function (val) {
      FileReadStream = val
    },
    enumerable: true,
    configurable: true
  })
  var FileWriteStream = WriteStream
  Object.defineProperty(fs, 'FileWriteStream', {
    get: function () {
      return FileWriteStream
    },
    set: function (val) {
      FileWriteStream = val
    },
    enumerable: true,
    configurable: true
  })

  function ReadStream (path, options) {
    if (this instanceof ReadStream)
      return fs$ReadStream.apply(this, arguments), this
    else
      return ReadStream.apply(Object.create(ReadStream.prototype), arguments)
  }

  function ReadStream$open () {
    var that = this
    open(that.path, that.flags, that.mode, function (err, fd) {
      if (err) {
        if (that.autoClose)
          that.destroy()

        that.emit('error', err)
      } else {
        that.fd = fd
        that.emit('open', fd)
        that.read()
      }
    })
  }

  function WriteStream (path, options) {
    if (this instanceof WriteStream)
      return fs$WriteStream.apply(this, arguments), this
    else
      return WriteStream.apply(Object.create(WriteStream.prototype), arguments)
  }

  function WriteStream$open () {
    var that = this
    open(that.path, that.flags, that.mode, function (err, fd) {
      if (err) {
        that.destroy()
        that.emit('error', err)
      } else {
        that.fd = fd
        that.emit('open', fd)
      }
    })
  }

  function createReadStream (path, options) {
    return new fs.ReadStream(path, options)
  }

  function createWriteStream (path, options) {
    return new fs.WriteStream(path, options)
  }

  var fs$open = fs.open
  fs.open = open
  function open (path, flags, mode, cb) {
    if (typeof mode === 'function')
      cb = mode, mode = null

    return go$open(path, flags, mode, cb)

    function go$open (path, flags, mode, cb, startTime) {
      return fs$open(path, flags, mode, function (err, fd) {
        if (err && (err.code === 'EMFILE' || err.code === 'ENFILE'))
          enqueue([go$open, [path, flags, mode, cb], err, startTime || Date.now(), Date.now()])
        else {
          if (typeof cb === 'function')
            cb.apply(this, arguments)
        }
      })
    }
  }

  return fs
}

function enqueue (elem) {
  debug('ENQUEUE', elem[0].name, elem[1])
  fs[gracefulQueue].push(elem)
  retry()
}

// keep track of the timeout between retry() calls
var retryTimer

// reset the startTime and lastTime to now
// this resets the start of the 60 second overall timeout as well as the
// delay between attempts so that we'll retry these jobs sooner
function resetQueue () {
  var now = Date.now()
  for (var i = 0; i < fs[gracefulQueue].length; ++i) {
    // entries that are only a length of 2 are from an older version, don't
    // bother modifying those since they'll be retried anyway.
    if (fs[gracefulQueue][i].length > 2) {
      fs[gracefulQueue][i][3] = now // startTime
      fs[gracefulQueue][i][4] = now // lastTime
    }
  }
  // call retry to make sure we're actively processing the queue
  retry()
}

function retry () {
  // clear the timer and remove it to help prevent unintended concurrency
  clearTimeout(retryTimer)
  retryTimer = undefined

  if (fs[gracefulQueue].length === 0)
    return

  var elem = fs[gracefulQueue].shift()
  var fn = elem[0]
  var args = elem[1]
  // these items may be unset if they were added by an older graceful-fs
  var err = elem[2]
  var startTime = elem[3]
  var lastTime = elem[4]

  // if we don't have a startTime we have no way of knowing if we've waited
  // long enough, so go ahead and retry this item now
  if (startTime === undefined) {
    debug('RETRY', fn.name, args)
    fn.apply(null, args)
  } else if (Date.now() - startTime >= 60000) {
    // it's been more than 60 seconds total, bail now
    debug('TIMEOUT', fn.name, args)
    var cb = args.pop()
    if (typeof cb === 'function')
      cb.call(null, err)
  } else {
    // the amount of time between the last attempt and right now
    var sinceAttempt = Date.now() - lastTime
    // the amount of time between when we first tried, and when we last tried
    // rounded up to at least 1
    var sinceStart = Math.max(lastTime - startTime, 1)
    // backoff. wait longer than the total time we've been retrying, but only
    // up to a maximum of 100ms
    var desiredDelay = Math.min(sinceStart * 1.2, 100)
    // it's been long enough since the last retry, do it again
    if (sinceAttempt >= desiredDelay) {
      debug('RETRY', fn.name, args)
      fn.apply(null, args.concat([startTime]))
    } else {
      // if we can't do this job yet, push it to the end of the queue
      // and let the next iteration check again
      fs[gracefulQueue].push(elem)
    }
  }

  // schedule our next run if one isn't already scheduled
  if (retryTimer === undefined) {
    retryTimer = setTimeout(retry, 0)
  }
}


/***/ }),

/***/ 2270:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

var Stream = (__nccwpck_require__(2203).Stream)

module.exports = legacy

function legacy (fs) {
  return {
    ReadStream: ReadStream,
    WriteStream: WriteStream
  }

  function ReadStream (path, options) {
    if (!(this instanceof ReadStream)) return new ReadStream(path, options);

    Stream.call(this);

    var self = this;

    this.path = path;
    this.fd = null;
    this.readable = true;
    this.paused = false;

    this.flags = 'r';
    this.mode = 438; /*=0666*/
    this.bufferSize = 64 * 1024;

    options = options || {};

    // Mixin options into this
    var keys = Object.keys(options);
    for (var index = 0, length = keys.length; index < length; index++) {
      var key = keys[index];
      this[key] = options[key];
    }

    if (this.encoding) this.setEncoding(this.encoding);

    if (this.start !== undefined) {
      if ('number' !== typeof this.start) {
        throw TypeError('start must be a Number');
      }
      if (this.end === undefined) {
        this.end = Infinity;
      } else if ('number' !== typeof this.end) {
        throw TypeError('end must be a Number');
      }

      if (this.start > this.end) {
        throw new Error('start must be <= end');
      }

      this.pos = this.start;
    }

    if (this.fd !== null) {
      process.nextTick(function() {
        self._read();
      });
      return;
    }

    fs.open(this.path, this.flags, this.mode, function (err, fd) {
      if (err) {
        self.emit('error', err);
        self.readable = false;
        return;
      }

      self.fd = fd;
      self.emit('open', fd);
      self._read();
    })
  }

  function WriteStream (path, options) {
    if (!(this instanceof WriteStream)) return new WriteStream(path, options);

    Stream.call(this);

    this.path = path;
    this.fd = null;
    this.writable = true;

    this.flags = 'w';
    this.encoding = 'binary';
    this.mode = 438; /*=0666*/
    this.bytesWritten = 0;

    options = options || {};

    // Mixin options into this
    var keys = Object.keys(options);
    for (var index = 0, length = keys.length; index < length; index++) {
      var key = keys[index];
      this[key] = options[key];
    }

    if (this.start !== undefined) {
      if ('number' !== typeof this.start) {
        throw TypeError('start must be a Number');
      }
      if (this.start < 0) {
        throw new Error('start must be >= zero');
      }

      this.pos = this.start;
    }

    this.busy = false;
    this._queue = [];

    if (this.fd === null) {
      this._open = fs.open;
      this._queue.push([this._open, this.path, this.flags, this.mode, undefined]);
      this.flush();
    }
  }
}


/***/ }),

/***/ 3501:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

var constants = __nccwpck_require__(9140)

var origCwd = process.cwd
var cwd = null

var platform = process.env.GRACEFUL_FS_PLATFORM || process.platform

process.cwd = function() {
  if (!cwd)
    cwd = origCwd.call(process)
  return cwd
}
try {
  process.cwd()
} catch (er) {}

// This check is needed until node.js 12 is required
if (typeof process.chdir === 'function') {
  var chdir = process.chdir
  process.chdir = function (d) {
    cwd = null
    chdir.call(process, d)
  }
  if (Object.setPrototypeOf) Object.setPrototypeOf(process.chdir, chdir)
}

module.exports = patch

function patch (fs) {
  // (re-)implement some things that are known busted or missing.

  // lchmod, broken prior to 0.6.2
  // back-port the fix here.
  if (constants.hasOwnProperty('O_SYMLINK') &&
      process.version.match(/^v0\.6\.[0-2]|^v0\.5\./)) {
    patchLchmod(fs)
  }

  // lutimes implementation, or no-op
  if (!fs.lutimes) {
    patchLutimes(fs)
  }

  // https://github.com/isaacs/node-graceful-fs/issues/4
  // Chown should not fail on einval or eperm if non-root.
  // It should not fail on enosys ever, as this just indicates
  // that a fs doesn't support the intended operation.

  fs.chown = chownFix(fs.chown)
  fs.fchown = chownFix(fs.fchown)
  fs.lchown = chownFix(fs.lchown)

  fs.chmod = chmodFix(fs.chmod)
  fs.fchmod = chmodFix(fs.fchmod)
  fs.lchmod = chmodFix(fs.lchmod)

  fs.chownSync = chownFixSync(fs.chownSync)
  fs.fchownSync = chownFixSync(fs.fchownSync)
  fs.lchownSync = chownFixSync(fs.lchownSync)

  fs.chmodSync = chmodFixSync(fs.chmodSync)
  fs.fchmodSync = chmodFixSync(fs.fchmodSync)
  fs.lchmodSync = chmodFixSync(fs.lchmodSync)

  fs.stat = statFix(fs.stat)
  fs.fstat = statFix(fs.fstat)
  fs.lstat = statFix(fs.lstat)

  fs.statSync = statFixSync(fs.statSync)
  fs.fstatSync = statFixSync(fs.fstatSync)
  fs.lstatSync = statFixSync(fs.lstatSync)

  // if lchmod/lchown do not exist, then make them no-ops
  if (fs.chmod && !fs.lchmod) {
    fs.lchmod = function (path, mode, cb) {
      if (cb) process.nextTick(cb)
    }
    fs.lchmodSync = function () {}
  }
  if (fs.chown && !fs.lchown) {
    fs.lchown = function (path, uid, gid, cb) {
      if (cb) process.nextTick(cb)
    }
    fs.lchownSync = function () {}
  }

  // on Windows, A/V software can lock the directory, causing this
  // to fail with an EACCES or EPERM if the directory contains newly
  // created files.  Try again on failure, for up to 60 seconds.

  // Set the timeout this long because some Windows Anti-Virus, such as Parity
  // bit9, may lock files for up to a minute, causing npm package install
  // failures. Also, take care to yield the scheduler. Windows scheduling gives
  // CPU to a busy looping process, which can cause the program causing the lock
  // contention to be starved of CPU by node, so the contention doesn't resolve.
  if (platform === "win32") {
    fs.rename = typeof fs.rename !== 'function' ? fs.rename
    : (function (fs$rename) {
      function rename (from, to, cb) {
        var start = Date.now()
        var backoff = 0;
        fs$rename(from, to, function CB (er) {
          if (er
              && (er.code === "EACCES" || er.code === "EPERM" || er.code === "EBUSY")
              && Date.now() - start < 60000) {
            setTimeout(function() {
              fs.stat(to, function (stater, st) {
                if (stater && stater.code === "ENOENT")
                  fs$rename(from, to, CB);
                else
                  cb(er)
              })
            }, backoff)
            if (backoff < 100)
              backoff += 10;
            return;
          }
          if (cb) cb(er)
        })
      }
      if (Object.setPrototypeOf) Object.setPrototypeOf(rename, fs$rename)
      return rename
    })(fs.rename)
  }

  // if read() returns EAGAIN, then just try it again.
  fs.read = typeof fs.read !== 'function' ? fs.read
  : (function (fs$read) {
    function read (fd, buffer, offset, length, position, callback_) {
      var callback
      if (callback_ && typeof callback_ === 'function') {
        var eagCounter = 0
        callback = function (er, _, __) {
          if (er && er.code === 'EAGAIN' && eagCounter < 10) {
            eagCounter ++
            return fs$read.call(fs, fd, buffer, offset, length, position, callback)
          }
          callback_.apply(this, arguments)
        }
      }
      return fs$read.call(fs, fd, buffer, offset, length, position, callback)
    }

    // This ensures `util.promisify` works as it does for native `fs.read`.
    if (Object.setPrototypeOf) Object.setPrototypeOf(read, fs$read)
    return read
  })(fs.read)

  fs.readSync = typeof fs.readSync !== 'function' ? fs.readSync
  : (function (fs$readSync) { return function (fd, buffer, offset, length, position) {
    var eagCounter = 0
    while (true) {
      try {
        return fs$readSync.call(fs, fd, buffer, offset, length, position)
      } catch (er) {
        if (er.code === 'EAGAIN' && eagCounter < 10) {
          eagCounter ++
          continue
        }
        throw er
      }
    }
  }})(fs.readSync)

  function patchLchmod (fs) {
    fs.lchmod = function (path, mode, callback) {
      fs.open( path
             , constants.O_WRONLY | constants.O_SYMLINK
             , mode
             , function (err, fd) {
        if (err) {
          if (callback) callback(err)
          return
        }
        // prefer to return the chmod error, if one occurs,
        // but still try to close, and report closing errors if they occur.
        fs.fchmod(fd, mode, function (err) {
          fs.close(fd, function(err2) {
            if (callback) callback(err || err2)
          })
        })
      })
    }

    fs.lchmodSync = function (path, mode) {
      var fd = fs.openSync(path, constants.O_WRONLY | constants.O_SYMLINK, mode)

      // prefer to return the chmod error, if one occurs,
      // but still try to close, and report closing errors if they occur.
      var threw = true
      var ret
      try {
        ret = fs.fchmodSync(fd, mode)
        threw = false
      } finally {
        if (threw) {
          try {
            fs.closeSync(fd)
          } catch (er) {}
        } else {
          fs.closeSync(fd)
        }
      }
      return ret
    }
  }

  function patchLutimes (fs) {
    if (constants.hasOwnProperty("O_SYMLINK") && fs.futimes) {
      fs.lutimes = function (path, at, mt, cb) {
        fs.open(path, constants.O_SYMLINK, function (er, fd) {
          if (er) {
            if (cb) cb(er)
            return
          }
          fs.futimes(fd, at, mt, function (er) {
            fs.close(fd, function (er2) {
              if (cb) cb(er || er2)
            })
          })
        })
      }

      fs.lutimesSync = function (path, at, mt) {
        var fd = fs.openSync(path, constants.O_SYMLINK)
        var ret
        var threw = true
        try {
          ret = fs.futimesSync(fd, at, mt)
          threw = false
        } finally {
          if (threw) {
            try {
              fs.closeSync(fd)
            } catch (er) {}
          } else {
            fs.closeSync(fd)
          }
        }
        return ret
      }

    } else if (fs.futimes) {
      fs.lutimes = function (_a, _b, _c, cb) { if (cb) process.nextTick(cb) }
      fs.lutimesSync = function () {}
    }
  }

  function chmodFix (orig) {
    if (!orig) return orig
    return function (target, mode, cb) {
      return orig.call(fs, target, mode, function (er) {
        if (chownErOk(er)) er = null
        if (cb) cb.apply(this, arguments)
      })
    }
  }

  function chmodFixSync (orig) {
    if (!orig) return orig
    return function (target, mode) {
      try {
        return orig.call(fs, target, mode)
      } catch (er) {
        if (!chownErOk(er)) throw er
      }
    }
  }


  function chownFix (orig) {
    if (!orig) return orig
    return function (target, uid, gid, cb) {
      return orig.call(fs, target, uid, gid, function (er) {
        if (chownErOk(er)) er = null
        if (cb) cb.apply(this, arguments)
      })
    }
  }

  function chownFixSync (orig) {
    if (!orig) return orig
    return function (target, uid, gid) {
      try {
        return orig.call(fs, target, uid, gid)
      } catch (er) {
        if (!chownErOk(er)) throw er
      }
    }
  }

  function statFix (orig) {
    if (!orig) return orig
    // Older versions of Node erroneously returned signed integers for
    // uid + gid.
    return function (target, options, cb) {
      if (typeof options === 'function') {
        cb = options
        options = null
      }
      function callback (er, stats) {
        if (stats) {
          if (stats.uid < 0) stats.uid += 0x100000000
          if (stats.gid < 0) stats.gid += 0x100000000
        }
        if (cb) cb.apply(this, arguments)
      }
      return options ? orig.call(fs, target, options, callback)
        : orig.call(fs, target, callback)
    }
  }

  function statFixSync (orig) {
    if (!orig) return orig
    // Older versions of Node erroneously returned signed integers for
    // uid + gid.
    return function (target, options) {
      var stats = options ? orig.call(fs, target, options)
        : orig.call(fs, target)
      if (stats) {
        if (stats.uid < 0) stats.uid += 0x100000000
        if (stats.gid < 0) stats.gid += 0x100000000
      }
      return stats;
    }
  }

  // ENOSYS means that the fs doesn't support the op. Just ignore
  // that, because it doesn't matter.
  //
  // if there's no getuid, or if getuid() is something other
  // than 0, and the error is EINVAL or EPERM, then just ignore
  // it.
  //
  // This specific case is a silent failure in cp, install, tar,
  // and most other unix tools that manage permissions.
  //
  // When running as root, or if other types of errors are
  // encountered, then it's strict.
  function chownErOk (er) {
    if (!er)
      return true

    if (er.code === "ENOSYS")
      return true

    var nonroot = !process.getuid || process.getuid() !== 0
    if (nonroot) {
      if (er.code === "EINVAL" || er.code === "EPERM")
        return true
    }

    return false
  }
}


/***/ }),

/***/ 3648:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const lockfile = __nccwpck_require__(743);
const { toPromise, toSync, toSyncOptions } = __nccwpck_require__(3271);

async function lock(file, options) {
    const release = await toPromise(lockfile.lock)(file, options);

    return toPromise(release);
}

function lockSync(file, options) {
    const release = toSync(lockfile.lock)(file, toSyncOptions(options));

    return toSync(release);
}

function unlock(file, options) {
    return toPromise(lockfile.unlock)(file, options);
}

function unlockSync(file, options) {
    return toSync(lockfile.unlock)(file, toSyncOptions(options));
}

function check(file, options) {
    return toPromise(lockfile.check)(file, options);
}

function checkSync(file, options) {
    return toSync(lockfile.check)(file, toSyncOptions(options));
}

module.exports = lock;
module.exports.lock = lock;
module.exports.unlock = unlock;
module.exports.lockSync = lockSync;
module.exports.unlockSync = unlockSync;
module.exports.check = check;
module.exports.checkSync = checkSync;


/***/ }),

/***/ 3271:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const fs = __nccwpck_require__(5744);

function createSyncFs(fs) {
    const methods = ['mkdir', 'realpath', 'stat', 'rmdir', 'utimes'];
    const newFs = { ...fs };

    methods.forEach((method) => {
        newFs[method] = (...args) => {
            const callback = args.pop();
            let ret;

            try {
                ret = fs[`${method}Sync`](...args);
            } catch (err) {
                return callback(err);
            }

            callback(null, ret);
        };
    });

    return newFs;
}

// ----------------------------------------------------------

function toPromise(method) {
    return (...args) => new Promise((resolve, reject) => {
        args.push((err, result) => {
            if (err) {
                reject(err);
            } else {
                resolve(result);
            }
        });

        method(...args);
    });
}

function toSync(method) {
    return (...args) => {
        let err;
        let result;

        args.push((_err, _result) => {
            err = _err;
            result = _result;
        });

        method(...args);

        if (err) {
            throw err;
        }

        return result;
    };
}

function toSyncOptions(options) {
    // Shallow clone options because we are oging to mutate them
    options = { ...options };

    // Transform fs to use the sync methods instead
    options.fs = createSyncFs(options.fs || fs);

    // Retries are not allowed because it requires the flow to be sync
    if (
        (typeof options.retries === 'number' && options.retries > 0) ||
        (options.retries && typeof options.retries.retries === 'number' && options.retries.retries > 0)
    ) {
        throw Object.assign(new Error('Cannot use retries with the sync api'), { code: 'ESYNC' });
    }

    return options;
}

module.exports = {
    toPromise,
    toSync,
    toSyncOptions,
};


/***/ }),

/***/ 743:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {



const path = __nccwpck_require__(6928);
const fs = __nccwpck_require__(5744);
const retry = __nccwpck_require__(5546);
const onExit = __nccwpck_require__(6627);
const mtimePrecision = __nccwpck_require__(4747);

const locks = {};

function getLockFile(file, options) {
    return options.lockfilePath || `${file}.lock`;
}

function resolveCanonicalPath(file, options, callback) {
    if (!options.realpath) {
        return callback(null, path.resolve(file));
    }

    // Use realpath to resolve symlinks
    // It also resolves relative paths
    options.fs.realpath(file, callback);
}

function acquireLock(file, options, callback) {
    const lockfilePath = getLockFile(file, options);

    // Use mkdir to create the lockfile (atomic operation)
    options.fs.mkdir(lockfilePath, (err) => {
        if (!err) {
            // At this point, we acquired the lock!
            // Probe the mtime precision
            return mtimePrecision.probe(lockfilePath, options.fs, (err, mtime, mtimePrecision) => {
                // If it failed, try to remove the lock..
                /* istanbul ignore if */
                if (err) {
                    options.fs.rmdir(lockfilePath, () => {});

                    return callback(err);
                }

                callback(null, mtime, mtimePrecision);
            });
        }

        // If error is not EEXIST then some other error occurred while locking
        if (err.code !== 'EEXIST') {
            return callback(err);
        }

        // Otherwise, check if lock is stale by analyzing the file mtime
        if (options.stale <= 0) {
            return callback(Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED', file }));
        }

        options.fs.stat(lockfilePath, (err, stat) => {
            if (err) {
                // Retry if the lockfile has been removed (meanwhile)
                // Skip stale check to avoid recursiveness
                if (err.code === 'ENOENT') {
                    return acquireLock(file, { ...options, stale: 0 }, callback);
                }

                return callback(err);
            }

            if (!isLockStale(stat, options)) {
                return callback(Object.assign(new Error('Lock file is already being held'), { code: 'ELOCKED', file }));
            }

            // If it's stale, remove it and try again!
            // Skip stale check to avoid recursiveness
            removeLock(file, options, (err) => {
                if (err) {
                    return callback(err);
                }

                acquireLock(file, { ...options, stale: 0 }, callback);
            });
        });
    });
}

function isLockStale(stat, options) {
    return stat.mtime.getTime() < Date.now() - options.stale;
}

function removeLock(file, options, callback) {
    // Remove lockfile, ignoring ENOENT errors
    options.fs.rmdir(getLockFile(file, options), (err) => {
        if (err && err.code !== 'ENOENT') {
            return callback(err);
        }

        callback();
    });
}

function updateLock(file, options) {
    const lock = locks[file];

    // Just for safety, should never happen
    /* istanbul ignore if */
    if (lock.updateTimeout) {
        return;
    }

    lock.updateDelay = lock.updateDelay || options.update;
    lock.updateTimeout = setTimeout(() => {
        lock.updateTimeout = null;

        // Stat the file to check if mtime is still ours
        // If it is, we can still recover from a system sleep or a busy event loop
        options.fs.stat(lock.lockfilePath, (err, stat) => {
            const isOverThreshold = lock.lastUpdate + options.stale < Date.now();

            // If it failed to update the lockfile, keep trying unless
            // the lockfile was deleted or we are over the threshold
            if (err) {
                if (err.code === 'ENOENT' || isOverThreshold) {
                    return setLockAsCompromised(file, lock, Object.assign(err, { code: 'ECOMPROMISED' }));
                }

                lock.updateDelay = 1000;

                return updateLock(file, options);
            }

            const isMtimeOurs = lock.mtime.getTime() === stat.mtime.getTime();

            if (!isMtimeOurs) {
                return setLockAsCompromised(
                    file,
                    lock,
                    Object.assign(
                        new Error('Unable to update lock within the stale threshold'),
                        { code: 'ECOMPROMISED' }
                    ));
            }

            const mtime = mtimePrecision.getMtime(lock.mtimePrecision);

            options.fs.utimes(lock.lockfilePath, mtime, mtime, (err) => {
                const isOverThreshold = lock.lastUpdate + options.stale < Date.now();

                // Ignore if the lock was released
                if (lock.released) {
                    return;
                }

                // If it failed to update the lockfile, keep trying unless
                // the lockfile was deleted or we are over the threshold
                if (err) {
                    if (err.code === 'ENOENT' || isOverThreshold) {
                        return setLockAsCompromised(file, lock, Object.assign(err, { code: 'ECOMPROMISED' }));
                    }

                    lock.updateDelay = 1000;

                    return updateLock(file, options);
                }

                // All ok, keep updating..
                lock.mtime = mtime;
                lock.lastUpdate = Date.now();
                lock.updateDelay = null;
                updateLock(file, options);
            });
        });
    }, lock.updateDelay);

    // Unref the timer so that the nodejs process can exit freely
    // This is safe because all acquired locks will be automatically released
    // on process exit

    // We first check that `lock.updateTimeout.unref` exists because some users
    // may be using this module outside of NodeJS (e.g., in an electron app),
    // and in those cases `setTimeout` return an integer.
    /* istanbul ignore else */
    if (lock.updateTimeout.unref) {
        lock.updateTimeout.unref();
    }
}

function setLockAsCompromised(file, lock, err) {
    // Signal the lock has been released
    lock.released = true;

    // Cancel lock mtime update
    // Just for safety, at this point updateTimeout should be null
    /* istanbul ignore if */
    if (lock.updateTimeout) {
        clearTimeout(lock.updateTimeout);
    }

    if (locks[file] === lock) {
        delete locks[file];
    }

    lock.options.onCompromised(err);
}

// ----------------------------------------------------------

function lock(file, options, callback) {
    /* istanbul ignore next */
    options = {
        stale: 10000,
        update: null,
        realpath: true,
        retries: 0,
        fs,
        onCompromised: (err) => { throw err; },
        ...options,
    };

    options.retries = options.retries || 0;
    options.retries = typeof options.retries === 'number' ? { retries: options.retries } : options.retries;
    options.stale = Math.max(options.stale || 0, 2000);
    options.update = options.update == null ? options.stale / 2 : options.update || 0;
    options.update = Math.max(Math.min(options.update, options.stale / 2), 1000);

    // Resolve to a canonical file path
    resolveCanonicalPath(file, options, (err, file) => {
        if (err) {
            return callback(err);
        }

        // Attempt to acquire the lock
        const operation = retry.operation(options.retries);

        operation.attempt(() => {
            acquireLock(file, options, (err, mtime, mtimePrecision) => {
                if (operation.retry(err)) {
                    return;
                }

                if (err) {
                    return callback(operation.mainError());
                }

                // We now own the lock
                const lock = locks[file] = {
                    lockfilePath: getLockFile(file, options),
                    mtime,
                    mtimePrecision,
                    options,
                    lastUpdate: Date.now(),
                };

                // We must keep the lock fresh to avoid staleness
                updateLock(file, options);

                callback(null, (releasedCallback) => {
                    if (lock.released) {
                        return releasedCallback &&
                            releasedCallback(Object.assign(new Error('Lock is already released'), { code: 'ERELEASED' }));
                    }

                    // Not necessary to use realpath twice when unlocking
                    unlock(file, { ...options, realpath: false }, releasedCallback);
                });
            });
        });
    });
}

function unlock(file, options, callback) {
    options = {
        fs,
        realpath: true,
        ...options,
    };

    // Resolve to a canonical file path
    resolveCanonicalPath(file, options, (err, file) => {
        if (err) {
            return callback(err);
        }

        // Skip if the lock is not acquired
        const lock = locks[file];

        if (!lock) {
            return callback(Object.assign(new Error('Lock is not acquired/owned by you'), { code: 'ENOTACQUIRED' }));
        }

        lock.updateTimeout && clearTimeout(lock.updateTimeout); // Cancel lock mtime update
        lock.released = true; // Signal the lock has been released
        delete locks[file]; // Delete from locks

        removeLock(file, options, callback);
    });
}

function check(file, options, callback) {
    options = {
        stale: 10000,
        realpath: true,
        fs,
        ...options,
    };

    options.stale = Math.max(options.stale || 0, 2000);

    // Resolve to a canonical file path
    resolveCanonicalPath(file, options, (err, file) => {
        if (err) {
            return callback(err);
        }

        // Check if lockfile exists
        options.fs.stat(getLockFile(file, options), (err, stat) => {
            if (err) {
                // If does not exist, file is not locked. Otherwise, callback with error
                return err.code === 'ENOENT' ? callback(null, false) : callback(err);
            }

            // Otherwise, check if lock is stale by analyzing the file mtime
            return callback(null, !isLockStale(stat, options));
        });
    });
}

function getLocks() {
    return locks;
}

// Remove acquired locks on exit
/* istanbul ignore next */
onExit(() => {
    for (const file in locks) {
        const options = locks[file].options;

        try { options.fs.rmdirSync(getLockFile(file, options)); } catch (e) { /* Empty */ }
    }
});

module.exports.lock = lock;
module.exports.unlock = unlock;
module.exports.check = check;
module.exports.getLocks = getLocks;


/***/ }),

/***/ 4747:
/***/ ((module) => {



const cacheSymbol = Symbol();

function probe(file, fs, callback) {
    const cachedPrecision = fs[cacheSymbol];

    if (cachedPrecision) {
        return fs.stat(file, (err, stat) => {
            /* istanbul ignore if */
            if (err) {
                return callback(err);
            }

            callback(null, stat.mtime, cachedPrecision);
        });
    }

    // Set mtime by ceiling Date.now() to seconds + 5ms so that it's "not on the second"
    const mtime = new Date((Math.ceil(Date.now() / 1000) * 1000) + 5);

    fs.utimes(file, mtime, mtime, (err) => {
        /* istanbul ignore if */
        if (err) {
            return callback(err);
        }

        fs.stat(file, (err, stat) => {
            /* istanbul ignore if */
            if (err) {
                return callback(err);
            }

            const precision = stat.mtime.getTime() % 1000 === 0 ? 's' : 'ms';

            // Cache the precision in a non-enumerable way
            Object.defineProperty(fs, cacheSymbol, { value: precision });

            callback(null, stat.mtime, precision);
        });
    });
}

function getMtime(precision) {
    let now = Date.now();

    if (precision === 's') {
        now = Math.ceil(now / 1000) * 1000;
    }

    return new Date(now);
}

module.exports.probe = probe;
module.exports.getMtime = getMtime;


/***/ }),

/***/ 5546:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

module.exports = __nccwpck_require__(7084);

/***/ }),

/***/ 7084:
/***/ ((__unused_webpack_module, exports, __nccwpck_require__) => {

var RetryOperation = __nccwpck_require__(9538);

exports.operation = function(options) {
  var timeouts = exports.timeouts(options);
  return new RetryOperation(timeouts, {
      forever: options && options.forever,
      unref: options && options.unref,
      maxRetryTime: options && options.maxRetryTime
  });
};

exports.timeouts = function(options) {
  if (options instanceof Array) {
    return [].concat(options);
  }

  var opts = {
    retries: 10,
    factor: 2,
    minTimeout: 1 * 1000,
    maxTimeout: Infinity,
    randomize: false
  };
  for (var key in options) {
    opts[key] = options[key];
  }

  if (opts.minTimeout > opts.maxTimeout) {
    throw new Error('minTimeout is greater than maxTimeout');
  }

  var timeouts = [];
  for (var i = 0; i < opts.retries; i++) {
    timeouts.push(this.createTimeout(i, opts));
  }

  if (options && options.forever && !timeouts.length) {
    timeouts.push(this.createTimeout(i, opts));
  }

  // sort the array numerically ascending
  timeouts.sort(function(a,b) {
    return a - b;
  });

  return timeouts;
};

exports.createTimeout = function(attempt, opts) {
  var random = (opts.randomize)
    ? (Math.random() + 1)
    : 1;

  var timeout = Math.round(random * opts.minTimeout * Math.pow(opts.factor, attempt));
  timeout = Math.min(timeout, opts.maxTimeout);

  return timeout;
};

exports.wrap = function(obj, options, methods) {
  if (options instanceof Array) {
    methods = options;
    options = null;
  }

  if (!methods) {
    methods = [];
    for (var key in obj) {
      if (typeof obj[key] === 'function') {
        methods.push(key);
      }
    }
  }

  for (var i = 0; i < methods.length; i++) {
    var method   = methods[i];
    var original = obj[method];

    obj[method] = function retryWrapper(original) {
      var op       = exports.operation(options);
      var args     = Array.prototype.slice.call(arguments, 1);
      var callback = args.pop();

      args.push(function(err) {
        if (op.retry(err)) {
          return;
        }
        if (err) {
          arguments[0] = op.mainError();
        }
        callback.apply(this, arguments);
      });

      op.attempt(function() {
        original.apply(obj, args);
      });
    }.bind(obj, original);
    obj[method].options = options;
  }
};


/***/ }),

/***/ 9538:
/***/ ((module) => {

function RetryOperation(timeouts, options) {
  // Compatibility for the old (timeouts, retryForever) signature
  if (typeof options === 'boolean') {
    options = { forever: options };
  }

  this._originalTimeouts = JSON.parse(JSON.stringify(timeouts));
  this._timeouts = timeouts;
  this._options = options || {};
  this._maxRetryTime = options && options.maxRetryTime || Infinity;
  this._fn = null;
  this._errors = [];
  this._attempts = 1;
  this._operationTimeout = null;
  this._operationTimeoutCb = null;
  this._timeout = null;
  this._operationStart = null;

  if (this._options.forever) {
    this._cachedTimeouts = this._timeouts.slice(0);
  }
}
module.exports = RetryOperation;

RetryOperation.prototype.reset = function() {
  this._attempts = 1;
  this._timeouts = this._originalTimeouts;
}

RetryOperation.prototype.stop = function() {
  if (this._timeout) {
    clearTimeout(this._timeout);
  }

  this._timeouts       = [];
  this._cachedTimeouts = null;
};

RetryOperation.prototype.retry = function(err) {
  if (this._timeout) {
    clearTimeout(this._timeout);
  }

  if (!err) {
    return false;
  }
  var currentTime = new Date().getTime();
  if (err && currentTime - this._operationStart >= this._maxRetryTime) {
    this._errors.unshift(new Error('RetryOperation timeout occurred'));
    return false;
  }

  this._errors.push(err);

  var timeout = this._timeouts.shift();
  if (timeout === undefined) {
    if (this._cachedTimeouts) {
      // retry forever, only keep last error
      this._errors.splice(this._errors.length - 1, this._errors.length);
      this._timeouts = this._cachedTimeouts.slice(0);
      timeout = this._timeouts.shift();
    } else {
      return false;
    }
  }

  var self = this;
  var timer = setTimeout(function() {
    self._attempts++;

    if (self._operationTimeoutCb) {
      self._timeout = setTimeout(function() {
        self._operationTimeoutCb(self._attempts);
      }, self._operationTimeout);

      if (self._options.unref) {
          self._timeout.unref();
      }
    }

    self._fn(self._attempts);
  }, timeout);

  if (this._options.unref) {
      timer.unref();
  }

  return true;
};

RetryOperation.prototype.attempt = function(fn, timeoutOps) {
  this._fn = fn;

  if (timeoutOps) {
    if (timeoutOps.timeout) {
      this._operationTimeout = timeoutOps.timeout;
    }
    if (timeoutOps.cb) {
      this._operationTimeoutCb = timeoutOps.cb;
    }
  }

  var self = this;
  if (this._operationTimeoutCb) {
    this._timeout = setTimeout(function() {
      self._operationTimeoutCb();
    }, self._operationTimeout);
  }

  this._operationStart = new Date().getTime();

  this._fn(this._attempts);
};

RetryOperation.prototype.try = function(fn) {
  console.log('Using RetryOperation.try() is deprecated');
  this.attempt(fn);
};

RetryOperation.prototype.start = function(fn) {
  console.log('Using RetryOperation.start() is deprecated');
  this.attempt(fn);
};

RetryOperation.prototype.start = RetryOperation.prototype.try;

RetryOperation.prototype.errors = function() {
  return this._errors;
};

RetryOperation.prototype.attempts = function() {
  return this._attempts;
};

RetryOperation.prototype.mainError = function() {
  if (this._errors.length === 0) {
    return null;
  }

  var counts = {};
  var mainError = null;
  var mainErrorCount = 0;

  for (var i = 0; i < this._errors.length; i++) {
    var error = this._errors[i];
    var message = error.message;
    var count = (counts[message] || 0) + 1;

    counts[message] = count;

    if (count >= mainErrorCount) {
      mainError = error;
      mainErrorCount = count;
    }
  }

  return mainError;
};


/***/ }),

/***/ 6627:
/***/ ((module, __unused_webpack_exports, __nccwpck_require__) => {

// Note: since nyc uses this module to output coverage, any lines
// that are in the direct sync flow of nyc's outputCoverage are
// ignored, since we can never get coverage for them.
// grab a reference to node's real process object right away
var process = global.process

const processOk = function (process) {
  return process &&
    typeof process === 'object' &&
    typeof process.removeListener === 'function' &&
    typeof process.emit === 'function' &&
    typeof process.reallyExit === 'function' &&
    typeof process.listeners === 'function' &&
    typeof process.kill === 'function' &&
    typeof process.pid === 'number' &&
    typeof process.on === 'function'
}

// some kind of non-node environment, just no-op
/* istanbul ignore if */
if (!processOk(process)) {
  module.exports = function () {
    return function () {}
  }
} else {
  var assert = __nccwpck_require__(2613)
  var signals = __nccwpck_require__(1430)
  var isWin = /^win/i.test(process.platform)

  var EE = __nccwpck_require__(4434)
  /* istanbul ignore if */
  if (typeof EE !== 'function') {
    EE = EE.EventEmitter
  }

  var emitter
  if (process.__signal_exit_emitter__) {
    emitter = process.__signal_exit_emitter__
  } else {
    emitter = process.__signal_exit_emitter__ = new EE()
    emitter.count = 0
    emitter.emitted = {}
  }

  // Because this emitter is a global, we have to check to see if a
  // previous version of this library failed to enable infinite listeners.
  // I know what you're about to say.  But literally everything about
  // signal-exit is a compromise with evil.  Get used to it.
  if (!emitter.infinite) {
    emitter.setMaxListeners(Infinity)
    emitter.infinite = true
  }

  module.exports = function (cb, opts) {
    /* istanbul ignore if */
    if (!processOk(global.process)) {
      return function () {}
    }
    assert.equal(typeof cb, 'function', 'a callback must be provided for exit handler')

    if (loaded === false) {
      load()
    }

    var ev = 'exit'
    if (opts && opts.alwaysLast) {
      ev = 'afterexit'
    }

    var remove = function () {
      emitter.removeListener(ev, cb)
      if (emitter.listeners('exit').length === 0 &&
          emitter.listeners('afterexit').length === 0) {
        unload()
      }
    }
    emitter.on(ev, cb)

    return remove
  }

  var unload = function unload () {
    if (!loaded || !processOk(global.process)) {
      return
    }
    loaded = false

    signals.forEach(function (sig) {
      try {
        process.removeListener(sig, sigListeners[sig])
      } catch (er) {}
    })
    process.emit = originalProcessEmit
    process.reallyExit = originalProcessReallyExit
    emitter.count -= 1
  }
  module.exports.unload = unload

  var emit = function emit (event, code, signal) {
    /* istanbul ignore if */
    if (emitter.emitted[event]) {
      return
    }
    emitter.emitted[event] = true
    emitter.emit(event, code, signal)
  }

  // { <signal>: <listener fn>, ... }
  var sigListeners = {}
  signals.forEach(function (sig) {
    sigListeners[sig] = function listener () {
      /* istanbul ignore if */
      if (!processOk(global.process)) {
        return
      }
      // If there are no other listeners, an exit is coming!
      // Simplest way: remove us and then re-send the signal.
      // We know that this will kill the process, so we can
      // safely emit now.
      var listeners = process.listeners(sig)
      if (listeners.length === emitter.count) {
        unload()
        emit('exit', null, sig)
        /* istanbul ignore next */
        emit('afterexit', null, sig)
        /* istanbul ignore next */
        if (isWin && sig === 'SIGHUP') {
          // "SIGHUP" throws an `ENOSYS` error on Windows,
          // so use a supported signal instead
          sig = 'SIGINT'
        }
        /* istanbul ignore next */
        process.kill(process.pid, sig)
      }
    }
  })

  module.exports.signals = function () {
    return signals
  }

  var loaded = false

  var load = function load () {
    if (loaded || !processOk(global.process)) {
      return
    }
    loaded = true

    // This is the number of onSignalExit's that are in play.
    // It's important so that we can count the correct number of
    // listeners on signals, and don't wait for the other one to
    // handle it instead of us.
    emitter.count += 1

    signals = signals.filter(function (sig) {
      try {
        process.on(sig, sigListeners[sig])
        return true
      } catch (er) {
        return false
      }
    })

    process.emit = processEmit
    process.reallyExit = processReallyExit
  }
  module.exports.load = load

  var originalProcessReallyExit = process.reallyExit
  var processReallyExit = function processReallyExit (code) {
    /* istanbul ignore if */
    if (!processOk(global.process)) {
      return
    }
    process.exitCode = code || /* istanbul ignore next */ 0
    emit('exit', process.exitCode, null)
    /* istanbul ignore next */
    emit('afterexit', process.exitCode, null)
    /* istanbul ignore next */
    originalProcessReallyExit.call(process, process.exitCode)
  }

  var originalProcessEmit = process.emit
  var processEmit = function processEmit (ev, arg) {
    if (ev === 'exit' && processOk(global.process)) {
      /* istanbul ignore else */
      if (arg !== undefined) {
        process.exitCode = arg
      }
      var ret = originalProcessEmit.apply(this, arguments)
      /* istanbul ignore next */
      emit('exit', process.exitCode, null)
      /* istanbul ignore next */
      emit('afterexit', process.exitCode, null)
      /* istanbul ignore next */
      return ret
    } else {
      return originalProcessEmit.apply(this, arguments)
    }
  }
}


/***/ }),

/***/ 1430:
/***/ ((module) => {

// This is not the set of all possible signals.
//
// It IS, however, the set of all signals that trigger
// an exit on either Linux or BSD systems.  Linux is a
// superset of the signal names supported on BSD, and
// the unknown signals just fail to register, so we can
// catch that easily enough.
//
// Don't bother with SIGKILL.  It's uncatchable, which
// means that we can't fire any callbacks anyway.
//
// If a user does happen to register a handler on a non-
// fatal signal like SIGWINCH or something, and then
// exit, it'll end up firing `process.emit('exit')`, so
// the handler will be fired anyway.
//
// SIGBUS, SIGFPE, SIGSEGV and SIGILL, when not raised
// artificially, inherently leave the process in a
// state from which it is not safe to try and enter JS
// listeners.
module.exports = [
  'SIGABRT',
  'SIGALRM',
  'SIGHUP',
  'SIGINT',
  'SIGTERM'
]

if (process.platform !== 'win32') {
  module.exports.push(
    'SIGVTALRM',
    'SIGXCPU',
    'SIGXFSZ',
    'SIGUSR2',
    'SIGTRAP',
    'SIGSYS',
    'SIGQUIT',
    'SIGIOT'
    // should detect profiler and enable/disable accordingly.
    // see #21
    // 'SIGPROF'
  )
}

if (process.platform === 'linux') {
  module.exports.push(
    'SIGIO',
    'SIGPOLL',
    'SIGPWR',
    'SIGSTKFLT',
    'SIGUNUSED'
  )
}


/***/ }),

/***/ 2527:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  V4: () => (/* binding */ actionUi),
  iW: () => (/* binding */ main),
  bE: () => (/* binding */ action_post)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 7 modules
var core = __nccwpck_require__(4436);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: ./src/post.ts
var post = __nccwpck_require__(6661);
// EXTERNAL MODULE: ./src/run-mode.ts + 2 modules
var run_mode = __nccwpck_require__(7560);
// EXTERNAL MODULE: ./src/github/event.ts
var github_event = __nccwpck_require__(5015);
// EXTERNAL MODULE: ./src/settings.ts
var src_settings = __nccwpck_require__(8750);
// EXTERNAL MODULE: ./src/state.ts
var src_state = __nccwpck_require__(2462);
;// CONCATENATED MODULE: ./src/summary.ts
const esc = (text) => text.replace(/[|<>]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\n/g, ' ');
function outcomeRows(outcome) {
    const { sandbox, command, report, push } = outcome;
    const status = command.timedOut
        ? `⏱ timed out (exit ${command.exitCode})`
        : command.oomKilled
            ? `💥 out of memory (exit ${command.exitCode})`
            : command.exitCode === 0
                ? '✅ exit 0'
                : `❌ exit ${command.exitCode}`;
    const rows = [
        ['Command', status],
        ['Duration', `${(command.durationMs / 1000).toFixed(1)} s`],
        ['Sandbox', `${sandbox.name} (${sandbox.kind}, ${sandbox.reused ? 'reused' : 'new'})`],
        ['Branch', sandbox.branch || `detached at ${sandbox.startSha.slice(0, 12)}`],
        ['Where', sandbox.volume ? `volume ${sandbox.volume}` : (sandbox.hostPath ?? '')],
        ['Files changed', String(report.changedFiles.length)],
        ['New commits', String(report.commits)],
        ['HEAD', report.headSha.slice(0, 12)],
    ];
    if (push)
        rows.push(['Pushed', push.pushed ? 'yes' : `no: ${push.reason}`]);
    const { violations } = outcome.boundary;
    if (violations.length)
        rows.push([
            'Sandbox boundary',
            `⚠ ${violations.length} change(s) outside the sandbox, undone: ${violations.join('; ')}`,
        ]);
    return rows;
}
function outcomeMarkdown(outcome) {
    const rows = outcomeRows(outcome);
    const table = ['| | |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${esc(v)} |`)].join('\n');
    const stat = outcome.report.diffStat
        ? `\n\n<details><summary>Diff stat</summary>\n\n\`\`\`\n${outcome.report.diffStat.replace(/```/g, "'''")}\n\`\`\`\n</details>`
        : '';
    return `## worktree-sandbox: run\n\n${table}${stat}\n`;
}
function outcomeText(outcome) {
    const rows = outcomeRows(outcome);
    const width = Math.max(...rows.map(([k]) => k.length));
    return [
        ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
        outcome.report.diffStat ? `\n${outcome.report.diffStat}` : '',
    ]
        .join('\n')
        .trimEnd();
}

;// CONCATENATED MODULE: ./src/action.ts
// The action's two phases on top of the core: inputs in, outputs and a job summary out.









function actionUi() {
    return {
        info: (m) => core/* info */.pq(m),
        warning: (m) => core/* warning */.$e(m),
        group: (title, fn) => core/* group */.Os(title, fn),
        mask: (s) => core/* setSecret */.Pq(s),
        // The command's output must not issue workflow commands (::set-output, ::add-mask, ::error ...):
        // command processing is stopped around it with a token it cannot guess.
        untrusted: async (fn) => {
            const token = (0,external_node_crypto_.randomUUID)();
            process.stdout.write(`::stop-commands::${token}${external_node_os_.EOL}`);
            try {
                return await fn((line) => process.stdout.write(`${line}${external_node_os_.EOL}`));
            }
            finally {
                process.stdout.write(`::${token}::${external_node_os_.EOL}`);
            }
        },
    };
}
async function main() {
    const settings = (0,src_settings/* parseSettings */.P$)((name) => core/* getInput */.V4(name));
    if (settings.mode === 'reap') {
        const { reapAction } = await __nccwpck_require__.e(/* import() */ 459).then(__nccwpck_require__.bind(__nccwpck_require__, 8459));
        await reapAction(settings);
        return;
    }
    await runAction(settings);
}
async function runAction(settings) {
    const ui = actionUi();
    let outcome;
    if ((0,github_event/* isPullRequestRun */.Yp)(process.env.GITHUB_EVENT_NAME, settings.trigger, settings.branch)) {
        const { runForPullRequest, actionIo } = await __nccwpck_require__.e(/* import() */ 359).then(__nccwpck_require__.bind(__nccwpck_require__, 2359));
        outcome = await runForPullRequest(settings, actionIo(ui));
        if (!outcome)
            return;
    }
    else
        outcome = await (0,run_mode/* runSandbox */.F)(settings, { ui, save: src_state/* saveRunState */.iZ });
    setOutputs(outcome);
    await core/* summary */.z.addRaw(outcomeMarkdown(outcome)).write();
    const { exitCode } = outcome.command;
    if (exitCode !== 0 && !settings.allowFailure)
        core/* setFailed */.C1(`The command exited with code ${exitCode}.`);
}
function setOutputs(outcome) {
    const { sandbox, command, report, push } = outcome;
    const out = {
        sandbox: sandbox.name,
        kind: sandbox.kind,
        branch: sandbox.branch,
        volume: sandbox.volume ?? '',
        'worktree-path': sandbox.worktreePath,
        'exit-code': String(command.exitCode),
        changed: String(report.changedFiles.length > 0 || report.commits > 0),
        commits: String(report.commits),
        'head-sha': report.headSha,
        pushed: String(push?.pushed ?? false),
        'files-changed': String(report.changedFiles.length),
        'diff-stat': report.diffStat,
        violations: String(outcome.boundary.violations.length),
    };
    for (const [k, v] of Object.entries(out))
        core/* setOutput */.uH(k, v);
}
async function action_post() {
    const state = (0,src_state/* loadRunState */.fQ)();
    if (state?.progress && !state.progress.finished) {
        const { finishProgressInPost } = await __nccwpck_require__.e(/* import() */ 359).then(__nccwpck_require__.bind(__nccwpck_require__, 2359));
        await finishProgressInPost(state.progress, postToken(), actionUi());
    }
    if (!state?.location) {
        core/* info */.pq('Nothing to clean up: the main step created nothing.');
        return;
    }
    try {
        await (0,post/* cleanupRun */.w)(state, actionUi(), process.env.RUNNER_TEMP || external_node_os_.tmpdir());
    }
    catch (error) {
        core/* warning */.$e(`Cleanup did not complete: ${error.message}`);
    }
}
/** The post step gets the same inputs as main; only the token is needed, to finish a progress comment. */
function postToken() {
    try {
        return (0,src_settings/* parseSettings */.P$)((name) => core/* getInput */.V4(name)).token;
    }
    catch {
        return ''; // the main step failed on these inputs before it created anything to finish
    }
}


/***/ }),

/***/ 7651:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   KX: () => (/* binding */ worktreeAddArgs),
/* harmony export */   pd: () => (/* binding */ resolveBranch)
/* harmony export */ });
/* unused harmony export planBranch */
/* harmony import */ var _metadata_changes_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8482);
/* harmony import */ var _naming_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8499);


/** The protocol itself, as a pure decision. */
function planBranch(facts, newTransientName = _naming_js__WEBPACK_IMPORTED_MODULE_1__/* .transientSandboxName */ .j6) {
    if (!facts.branch) {
        return {
            kind: 'transient',
            sandbox: newTransientName(),
            branch: '',
            source: 'detached',
            startPoint: facts.baseCommit,
        };
    }
    const sandbox = (0,_naming_js__WEBPACK_IMPORTED_MODULE_1__/* .persistentSandboxName */ .ey)(facts.branch);
    if (facts.localExists)
        return { kind: 'persistent', sandbox, branch: facts.branch, source: 'local', startPoint: facts.branch };
    if (facts.remoteExists) {
        return {
            kind: 'persistent',
            sandbox,
            branch: facts.branch,
            source: 'remote',
            startPoint: `origin/${facts.branch}`,
        };
    }
    return { kind: 'persistent', sandbox, branch: facts.branch, source: 'new', startPoint: facts.baseCommit };
}
/**
 * Gathers the facts from the parent repository (fetching the branch from origin when it is not known yet).
 * Call it holding the repository lock, the parent checked by the git guards (guard.ts `verifyParent`):
 * the commit it starts from is then the trusted one, not one a running command moved a ref to.
 */
async function resolveBranch(git, parent, branch, base) {
    const parentPath = parent.path;
    const [baseCommit, localExists] = await Promise.all([
        git.resolveCommit(parentPath, base || 'HEAD'),
        branch ? git.refExists(parentPath, `refs/heads/${branch}`) : false,
    ]);
    if (!baseCommit)
        throw new Error(`Invalid input 'base': ${JSON.stringify(base)} names no commit in ${parentPath}.`);
    if (!branch)
        return planBranch({ branch, localExists: false, remoteExists: false, baseCommit });
    let remoteExists = false;
    if (!localExists) {
        remoteExists = await git.refExists(parentPath, `refs/remotes/origin/${branch}`);
        // actions/checkout fetches one ref only: ask origin whether the branch exists before creating it anew.
        if (!remoteExists && (await git.remoteUrl(parentPath, 'origin'))) {
            // It writes origin/<branch>, a ref every worktree shares: announced to the git guards.
            remoteExists = await git.tryFetchBranch(parentPath, 'origin', branch);
            if (remoteExists)
                await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_0__/* .announceRefs */ .g3)(git, parent, [`refs/remotes/origin/${branch}`]);
        }
    }
    return planBranch({ branch, localExists, remoteExists, baseCommit });
}
/**
 * The `git worktree add` arguments for a plan. A branch only on origin is created without `--track`: its
 * upstream is set afterwards (sandbox.ts), by an edit the git guards know of.
 */
function worktreeAddArgs(plan, worktreePath, lock) {
    const args = ['worktree', 'add', '--quiet'];
    if (lock)
        args.push('--lock');
    switch (plan.source) {
        case 'detached':
            args.push('--detach', '--', worktreePath, plan.startPoint);
            break;
        case 'local':
            args.push('--', worktreePath, plan.branch);
            break;
        case 'remote':
            args.push('--no-track', '-b', plan.branch, '--', worktreePath, plan.startPoint);
            break;
        case 'new':
            args.push('--no-track', '-b', plan.branch, '--', worktreePath, plan.startPoint);
            break;
    }
    return args;
}


/***/ }),

/***/ 3871:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ag: () => (/* binding */ LABEL_PREFIX),
/* harmony export */   NJ: () => (/* binding */ EngineError),
/* harmony export */   bS: () => (/* binding */ MANAGED_LABEL),
/* harmony export */   yz: () => (/* binding */ ContainerEngine)
/* harmony export */ });
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1783);
// The container engine CLI behind one small interface (Docker, or Podman which speaks the same CLI).
// Argument arrays only; values that could be secrets travel in the child's environment (`-e NAME`),
// never on its command line.

const LABEL_PREFIX = 'worktree-sandbox';
const MANAGED_LABEL = `${LABEL_PREFIX}.managed`;
class EngineError extends Error {
    constructor(message) {
        super(message);
        this.name = 'EngineError';
    }
}
const ENGINE_ENV = [
    'PATH',
    'HOME',
    'DOCKER_HOST',
    'DOCKER_CONFIG',
    'DOCKER_CONTEXT',
    'DOCKER_CERT_PATH',
    'DOCKER_TLS_VERIFY',
    'CONTAINERS_CONF',
    'CONTAINER_HOST',
    'XDG_RUNTIME_DIR',
    'TMPDIR',
];
class ContainerEngine {
    name;
    constructor(name = 'docker') {
        this.name = name;
    }
    env(extra = {}) {
        return { ...(0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .pickEnv */ .Bh)(ENGINE_ENV), ...extra };
    }
    /** Runs the engine CLI; never throws for a non-zero exit. */
    async exec(args, options = {}) {
        try {
            return await (0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .runProcess */ .R3)(this.name, args, { env: this.env(options.env), onLine: options.onLine });
        }
        catch (error) {
            if (error instanceof _proc_js__WEBPACK_IMPORTED_MODULE_0__/* .ProcError */ .Nm) {
                throw new EngineError(`${this.name} is not installed or not on PATH: isolation needs a container engine.`);
            }
            throw error;
        }
    }
    async run(args) {
        const result = await this.exec(args);
        if (result.exitCode !== 0)
            throw this.failure(args, result);
        return result.stdout;
    }
    failure(args, result) {
        const detail = (result.stderr || result.stdout).trim();
        if (/Cannot connect to the Docker daemon|Is the docker daemon running|connect: (no such file|connection refused|permission denied)|unable to connect to Podman|cannot connect to Podman/i.test(detail)) {
            return new EngineError(`The ${this.name} engine is unreachable: ${firstLine(detail)}`);
        }
        return new EngineError(`${this.name} ${args[0]} ${args[1] ?? ''} failed (exit ${result.exitCode}): ${detail}`);
    }
    /**
     * Makes sure `image` is present, pulling it when missing. Also the engine reachability check: one call on
     * the fast path, so that start-up stays quick.
     */
    async ensureImage(image) {
        const inspect = await this.exec(['image', 'inspect', '--format', '{{.Id}}', '--', image]);
        if (inspect.exitCode === 0)
            return;
        const failure = this.failure(['image', 'inspect'], inspect);
        if (failure.message.includes('unreachable'))
            throw failure;
        const pull = await this.exec(['pull', '--quiet', '--', image]);
        if (pull.exitCode !== 0) {
            throw new EngineError(`Image "${image}" is not present and could not be pulled: ${firstLine((pull.stderr || pull.stdout).trim())}`);
        }
    }
    async volumeExists(name) {
        const result = await this.exec(['volume', 'inspect', '--format', '{{.Name}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        const failure = this.failure(['volume', 'inspect'], result);
        if (failure.message.includes('unreachable'))
            throw failure;
        return false;
    }
    async createVolume(name, labels) {
        const args = ['volume', 'create'];
        for (const [key, value] of Object.entries(labels))
            args.push('--label', `${key}=${value}`);
        args.push('--', name);
        await this.run(args);
    }
    /** Removes a volume; false when it is absent. Throws when it is in use or the engine fails. */
    async removeVolume(name) {
        if (!(await this.volumeExists(name)))
            return false;
        await this.run(['volume', 'rm', '--', name]);
        return true;
    }
    /** Every volume carrying `label` (key or key=value), with its labels: one engine call whatever the count. */
    async listVolumes(label, labelKeys) {
        // Docker's template has .Label "key" (its .Labels is one "k=v,k=v" string, ambiguous with commas in
        // values); Podman's has .Labels as a map. Either way: one call, one JSON array per volume.
        const fields = this.name === 'podman'
            ? '{{json .Labels}}'
            : labelKeys.map((key) => `{{json (.Label ${JSON.stringify(key)})}}`).join(',');
        const out = await this.run([
            'volume',
            'ls',
            '--filter',
            `label=${label}`,
            '--format',
            `[{{json .Name}},${fields}]`,
        ]);
        return out
            .split('\n')
            .filter((line) => line.trim())
            .map((line) => {
            const [name, ...values] = JSON.parse(line);
            const all = typeof values[0] === 'object' && values[0] !== null ? values[0] : undefined;
            const labels = {};
            labelKeys.forEach((key, i) => {
                const value = all ? all[key] : values[i];
                if (value)
                    labels[key] = value;
            });
            return { name, labels };
        });
    }
    /** `--init` (a tiny init as PID 1: signals, zombies) where the engine always ships one. */
    get initArgs() {
        return this.name === 'docker' ? ['--init'] : [];
    }
    async containerState(name) {
        const result = await this.exec([
            'container',
            'inspect',
            '--format',
            '{{.State.ExitCode}} {{.State.OOMKilled}} {{.State.Running}}',
            '--',
            name,
        ]);
        if (result.exitCode !== 0)
            return undefined;
        const [code, oom, running] = result.stdout.trim().split(' ');
        return { exitCode: Number(code), oomKilled: oom === 'true', running: running === 'true' };
    }
    /** Whether a container exists: undefined when the engine cannot tell (unreachable). */
    async containerExists(name) {
        const result = await this.exec(['container', 'inspect', '--format', '{{.Id}}', '--', name]);
        if (result.exitCode === 0)
            return true;
        return /no such (container|object)/i.test(result.stderr) ? false : undefined;
    }
    /** Removes a container if it exists (running or not). */
    async removeContainer(name) {
        const result = await this.exec(['rm', '--force', '--volumes', '--', name]);
        return result.exitCode === 0;
    }
    async killContainer(name) {
        await this.exec(['kill', '--', name]);
    }
    /** Removes every container (running or not) carrying all the given labels; returns their names. */
    async removeContainersLabelled(labels) {
        const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
        const names = (await this.run(['ps', '--all', ...filters, '--format', '{{.Names}}']))
            .split('\n')
            .filter(Boolean);
        for (const name of names)
            await this.removeContainer(name);
        return names;
    }
    /**
     * Every container (running or not) with what it mounts: two engine calls whatever the number of
     * containers and volumes (`ps` for the ids, one `container inspect` for all of them).
     */
    async containerMounts() {
        const ids = (await this.run(['ps', '--all', '--quiet', '--no-trunc'])).split('\n').filter(Boolean);
        if (ids.length === 0)
            return [];
        const args = [
            'container',
            'inspect',
            '--format',
            '{{json .Name}} {{json .State.Running}} {{json .Mounts}}',
            '--',
            ...ids,
        ];
        const result = await this.exec(args);
        // A container removed between the two calls is simply gone; any other failure is a failure.
        const problems = result.stderr
            .split('\n')
            .filter((line) => line.trim() && !/no such (object|container)/i.test(line));
        if (result.exitCode !== 0 && problems.length)
            throw this.failure(args, result);
        return result.stdout
            .split('\n')
            .filter((line) => line.trim())
            .map((line) => parseMounts(line));
    }
}
function parseMounts(line) {
    // `"<name>" <true|false> [<mounts>]`: the name is a JSON string, so the first `" ` after it ends it.
    const nameEnd = line.indexOf('" ', 1) + 1;
    const name = JSON.parse(line.slice(0, nameEnd)).replace(/^\//, '');
    const rest = line.slice(nameEnd + 1);
    const space = rest.indexOf(' ');
    const running = rest.slice(0, space) === 'true';
    const mounts = JSON.parse(rest.slice(space + 1)) ?? [];
    return {
        name,
        running,
        volumes: mounts.filter((m) => m.Type === 'volume' && m.Name).map((m) => m.Name),
        binds: mounts.filter((m) => m.Type === 'bind' && m.Source).map((m) => m.Source),
    };
}
function firstLine(text) {
    return text.split('\n')[0] ?? '';
}


/***/ }),

/***/ 1243:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   TU: () => (/* binding */ Git),
/* harmony export */   W0: () => (/* binding */ gitConfigEnv)
/* harmony export */ });
/* unused harmony exports MIN_GIT_VERSION, HARDENED_GIT_CONFIG, baseGitEnv, GitError, compareVersions */
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1783);
// The git CLI behind one small interface. Every call goes through `exec`: argument arrays, a fixed
// environment, and configuration that keeps a repository's own settings from running anything on the
// host (hooks, fsmonitor, pagers, automatic gc that would prune live sandboxes).

const MIN_GIT_VERSION = [2, 31, 0];
/** Configuration applied to every host-side git command, above the repository's own configuration. */
const HARDENED_GIT_CONFIG = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['core.untrackedCache', 'false'],
    ['core.sshCommand', 'ssh'],
    ['core.pager', 'cat'],
    ['core.quotePath', 'false'],
    ['diff.external', ''],
    // A submodule planted by the container brings its own .git and config: never run git inside one.
    ['diff.ignoreSubmodules', 'dirty'],
    ['status.submoduleSummary', 'false'],
    ['submodule.recurse', 'false'],
    ['fetch.recurseSubmodules', 'false'],
    ['push.recurseSubmodules', 'no'],
    ['protocol.ext.allow', 'never'],
    ['gc.auto', '0'],
    ['maintenance.auto', 'false'],
    ['commit.gpgSign', 'false'],
    ['tag.gpgSign', 'false'],
    ['advice.detachedHead', 'false'],
    ['init.defaultBranch', 'main'],
];
/** Config as environment variables (GIT_CONFIG_COUNT/KEY_n/VALUE_n): also reaches git run by our scripts. */
function gitConfigEnv(extra = []) {
    const all = [...HARDENED_GIT_CONFIG, ...extra];
    const env = { GIT_CONFIG_COUNT: String(all.length) };
    all.forEach(([key, value], i) => {
        env[`GIT_CONFIG_KEY_${i}`] = key;
        env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
    return env;
}
function baseGitEnv() {
    return {
        ...(0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .pickEnv */ .Bh)(['PATH', 'HOME', 'XDG_CONFIG_HOME', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND', 'TMPDIR']),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        LC_ALL: 'C',
        ...gitConfigEnv(),
    };
}
class GitError extends Error {
    args;
    result;
    constructor(args, result) {
        super(`git ${args.join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim() || result.stdout.trim()}`);
        this.args = args;
        this.result = result;
        this.name = 'GitError';
    }
}
class Git {
    version;
    env;
    constructor(version, env) {
        this.version = version;
        this.env = env;
    }
    static async create() {
        const env = baseGitEnv();
        let result;
        try {
            result = await (0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .runProcess */ .R3)('git', ['version'], { env });
        }
        catch (error) {
            if (error instanceof _proc_js__WEBPACK_IMPORTED_MODULE_0__/* .ProcError */ .Nm) {
                throw new Error('git is not installed or not on PATH: the action needs git 2.31 or newer.', {
                    cause: error,
                });
            }
            throw error;
        }
        const match = /git version (\d+)\.(\d+)\.(\d+)/.exec(result.stdout);
        if (!match)
            throw new Error(`Cannot read the git version from "${result.stdout.trim()}".`);
        const version = match.slice(1, 4).map(Number);
        if (compareVersions(version, MIN_GIT_VERSION) < 0) {
            throw new Error(`git ${version.join('.')} is too old: worktree-sandbox needs git ${MIN_GIT_VERSION.join('.')} or newer.`);
        }
        return new Git(version.join('.'), env);
    }
    /** Runs git in `cwd`; never throws for a non-zero exit (see `run`). */
    async exec(cwd, args, options = {}) {
        const env = { ...this.env, ...options.env };
        if (options.config?.length)
            Object.assign(env, gitConfigEnv(options.config));
        return (0,_proc_js__WEBPACK_IMPORTED_MODULE_0__/* .runProcess */ .R3)('git', args, { cwd, env, input: options.input });
    }
    /** Runs git in `cwd`; throws a GitError naming the command for a non-zero exit. Returns stdout. */
    async run(cwd, args, options = {}) {
        const result = await this.exec(cwd, args, options);
        if (result.exitCode !== 0)
            throw new GitError(args, result);
        return result.stdout;
    }
    /** Environment for a script that calls git itself (same hardening as `exec`). */
    scriptEnv(extra = {}) {
        return { ...this.env, ...extra };
    }
    async isValidBranchName(name) {
        if (name.startsWith('-'))
            return false;
        // Run outside any repository, so that `@{-1}` and the like expand to nothing. `@` alone passes there,
        // but names HEAD inside a repository.
        if (name === '@')
            return false;
        const result = await this.exec('/', ['check-ref-format', '--branch', name]);
        return result.exitCode === 0 && result.stdout.trim() === name;
    }
    async refExists(cwd, ref) {
        const result = await this.exec(cwd, ['show-ref', '--verify', '--quiet', '--', ref]);
        return result.exitCode === 0;
    }
    /** The commit a revision names, or undefined when it names none. */
    async resolveCommit(cwd, rev) {
        if (rev.startsWith('-'))
            return undefined;
        const result = await this.exec(cwd, [
            'rev-parse',
            '--verify',
            '--quiet',
            '--end-of-options',
            `${rev}^{commit}`,
        ]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
    async tryFetchBranch(cwd, remote, branch) {
        const result = await this.exec(cwd, [
            'fetch',
            '--no-tags',
            '--quiet',
            '--',
            remote,
            `+refs/heads/${branch}:refs/remotes/${remote}/${branch}`,
        ]);
        return result.exitCode === 0;
    }
    async remoteUrl(cwd, remote) {
        const result = await this.exec(cwd, ['config', '--get', `remote.${remote}.url`]);
        return result.exitCode === 0 ? result.stdout.trim() : undefined;
    }
}
function compareVersions(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const d = (a[i] ?? 0) - (b[i] ?? 0);
        if (d !== 0)
            return d;
    }
    return 0;
}


/***/ }),

/***/ 5015:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   D_: () => (/* binding */ decideEvent),
/* harmony export */   Yp: () => (/* binding */ isPullRequestRun),
/* harmony export */   b$: () => (/* binding */ PROGRESS_MARKER)
/* harmony export */ });
/* unused harmony exports PULL_REQUEST_EVENTS, parseTrigger */
/* harmony import */ var _report_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(665);
// Which GitHub events start a pull-request run, and what the event asks for: a pure decision from the
// event name, its payload and the trigger settings. The payload is read defensively: any field may be
// missing or of the wrong type, and then the event starts nothing.

/** Starts every progress comment, so that the bot never takes its own comment for a request. */
const PROGRESS_MARKER = '<!-- worktree-sandbox:progress -->';
const PULL_REQUEST_EVENTS = ['issue_comment', 'pull_request', 'pull_request_target'];
const PULL_REQUEST_ACTIONS = ['opened', 'synchronize', 'reopened', 'ready_for_review'];
/**
 * Whether the action runs as the pull-request bot for this event (cheap: no API, no Octokit). A push is
 * handled by the bot only when no `branch` was given: then the sandbox works on the pushed branch.
 * `pr-number` is read on workflow_dispatch only, where the event proves the sender's write access.
 */
function isPullRequestRun(eventName, trigger, branchInput) {
    if (PULL_REQUEST_EVENTS.includes(eventName ?? ''))
        return true;
    if (eventName === 'push')
        return !branchInput;
    return eventName === 'workflow_dispatch' && trigger.prNumber > 0;
}
/**
 * The trigger must be the comment's first word, whole (`/fixed` is not `/fix`; case is ignored). The
 * rest of the comment, without the blank space that separates it, is the argument text (CRLF read as LF).
 */
function parseTrigger(body, trigger) {
    if (!trigger)
        return undefined;
    const text = body.replace(/\r\n/g, '\n').replace(/^\s+/, '');
    const end = text.search(/\s/);
    const word = end < 0 ? text : text.slice(0, end);
    if (word.toLowerCase() !== trigger.toLowerCase())
        return undefined;
    return { args: end < 0 ? '' : text.slice(end).trim() };
}
function decideEvent(eventName, payload, trigger) {
    const event = record(payload);
    switch (eventName) {
        case 'issue_comment':
            return decideComment(event, trigger);
        case 'pull_request':
        case 'pull_request_target':
            return decidePullRequest(eventName, event);
        case 'workflow_dispatch':
            return decideDispatch(event, trigger);
        case 'push':
            return decidePush(event);
        default:
            return ignore(`${eventName || 'this event'} is not a pull-request event (issue_comment, pull_request, pull_request_target, workflow_dispatch with pr-number, push)`);
    }
}
function decideComment(event, trigger) {
    if (event.action !== 'created')
        return ignore(`the comment was ${text(event.action) || 'changed'}, not created`);
    const issue = record(event.issue);
    if (!issue.pull_request)
        return ignore('the comment is on an issue, not on a pull request');
    const comment = record(event.comment);
    const body = text(comment.body);
    if (!trigger.command)
        return ignore("comment events need the 'trigger' input (such as /fix)");
    if (body.trimStart().startsWith(PROGRESS_MARKER))
        return ignore('the comment is a progress comment of this action');
    const parsed = parseTrigger(body, trigger.command);
    if (!parsed)
        return ignore(`the comment does not start with ${trigger.command}`);
    const number = positive(issue.number);
    const id = positive(comment.id);
    const requester = user(comment.user, comment.author_association);
    if (!number || !id || !requester)
        return ignore('the comment payload lacks the issue number, comment id or author');
    return {
        run: true,
        request: {
            event: 'issue_comment',
            prNumber: number,
            requester,
            comment: { id, trigger: trigger.command, args: parsed.args },
        },
    };
}
function decidePullRequest(eventName, event) {
    const action = text(event.action);
    if (!PULL_REQUEST_ACTIONS.includes(action))
        return ignore(`pull request action '${action}' starts no run (${PULL_REQUEST_ACTIONS.join(', ')} do)`);
    const pr = record(event.pull_request);
    const number = positive(pr.number) ?? positive(event.number);
    // Whose code runs in the sandbox: the pull request's author.
    const requester = user(pr.user, pr.author_association);
    if (!number || !requester)
        return ignore('the pull request payload lacks its number or author');
    return { run: true, request: { event: eventName, prNumber: number, requester } };
}
function decideDispatch(event, trigger) {
    if (!trigger.prNumber)
        return ignore('workflow_dispatch needs the pr-number input');
    const requester = user(event.sender, undefined, true);
    if (!requester)
        return ignore('the workflow_dispatch payload lacks its sender');
    return { run: true, request: { event: 'workflow_dispatch', prNumber: trigger.prNumber, requester } };
}
function decidePush(event) {
    const ref = text(event.ref);
    if (!ref.startsWith('refs/heads/'))
        return ignore(`${ref || 'the pushed ref'} is not a branch`);
    if (event.deleted === true || /^0+$/.test(text(event.after)))
        return ignore(`${ref} was deleted`);
    // Our own commits pushed with a token that does start workflows (PAT, App) must not start us again.
    const committer = record(record(event.head_commit).committer);
    if (text(committer.email).toLowerCase() === _report_js__WEBPACK_IMPORTED_MODULE_0__/* .BOT_IDENTITY */ .br.email)
        return ignore('the pushed commit was made by worktree-sandbox itself');
    const requester = user(event.sender, undefined, true);
    if (!requester)
        return ignore('the push payload lacks its sender');
    return {
        run: true,
        request: { event: 'push', pushedBranch: ref.slice('refs/heads/'.length), requester },
    };
}
function record(value) {
    return value && typeof value === 'object' ? value : {};
}
function text(value) {
    return typeof value === 'string' ? value : '';
}
function positive(value) {
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
function user(value, association, hasWriteAccess = false) {
    const u = record(value);
    const login = text(u.login);
    if (!login)
        return undefined;
    return {
        login,
        type: text(u.type) || 'User',
        association: text(association) || undefined,
        hasWriteAccess,
    };
}
function ignore(reason) {
    return { run: false, reason };
}


/***/ }),

/***/ 9084:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Yi: () => (/* binding */ restoreChanges),
/* harmony export */   oD: () => (/* binding */ diffStates),
/* harmony export */   sc: () => (/* binding */ sha256),
/* harmony export */   un: () => (/* binding */ readState),
/* harmony export */   yb: () => (/* binding */ describeFileChange)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
// Files the container can write and the host trusts afterwards (the parent's .git/config, hooks, info/,
// a worktree's admin files...): recorded before the command, compared and put back after it. Nothing here
// follows a symbolic link the container may have planted: paths are read with lstat, replaced by rename.



function sha256(data) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(data).digest('hex');
}
const MAX_READ = 64 * 1024 * 1024;
async function lstat(p) {
    return node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.lstat(p).catch(() => undefined);
}
/** The state of `p` (and, with `recursive`, of everything under it), file contents copied into `blobs`. */
async function readState(p, recursive, blobs) {
    const st = await lstat(p);
    if (!st)
        return [{ path: p, kind: 'absent' }];
    const mode = st.mode & 0o7777;
    if (st.isSymbolicLink())
        return [{ path: p, kind: 'symlink', target: await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readlink(p) }];
    if (st.isFile()) {
        // A huge file planted to exhaust memory is not read: it differs from any recorded file anyway.
        if (!blobs && st.size > MAX_READ)
            return [{ path: p, kind: 'file', mode, sha256: `size:${st.size}` }];
        const data = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile(p);
        const hash = sha256(data);
        if (blobs)
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.writeFile(node_path__WEBPACK_IMPORTED_MODULE_2__.join(blobs, hash), data, { mode: 0o600 });
        return [{ path: p, kind: 'file', mode, sha256: hash }];
    }
    if (!st.isDirectory())
        return [{ path: p, kind: 'other' }];
    const records = [{ path: p, kind: 'dir', mode }];
    if (!recursive)
        return records;
    for (const name of (await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readdir(p)).sort())
        records.push(...(await readState(node_path__WEBPACK_IMPORTED_MODULE_2__.join(p, name), true, blobs)));
    return records;
}
function same(a, b) {
    return a.kind === b.kind && a.sha256 === b.sha256 && a.target === b.target && a.mode === b.mode;
}
/** What differs between two states of the same paths (pure). */
function diffStates(before, after) {
    const was = new Map(before.map((r) => [r.path, r]));
    const now = new Map(after.map((r) => [r.path, r]));
    const changes = [];
    for (const p of new Set([...was.keys(), ...now.keys()])) {
        const b = was.get(p) ?? { path: p, kind: 'absent' };
        const a = now.get(p) ?? { path: p, kind: 'absent' };
        if (same(a, b))
            continue;
        const change = b.kind === 'absent' ? 'added' : a.kind === 'absent' ? 'removed' : 'changed';
        changes.push({ path: p, change, before: b, after: a });
    }
    return changes.sort((x, y) => x.path.localeCompare(y.path));
}
const depth = (p) => p.split(node_path__WEBPACK_IMPORTED_MODULE_2__.sep).length;
/** Refuses to write below a symbolic link between its root and `p` (it could lead anywhere on the host). */
async function assertRealDirectories(roots, p) {
    const root = roots.filter((r) => p.startsWith(r + node_path__WEBPACK_IMPORTED_MODULE_2__.sep)).sort((a, b) => b.length - a.length)[0];
    if (!root)
        throw new Error(`${p} is outside the guarded folders`);
    const rel = node_path__WEBPACK_IMPORTED_MODULE_2__.relative(root, node_path__WEBPACK_IMPORTED_MODULE_2__.dirname(p));
    if (rel.startsWith('..') || node_path__WEBPACK_IMPORTED_MODULE_2__.isAbsolute(rel))
        throw new Error(`${p} is outside ${root}`);
    let current = root;
    for (const part of rel ? rel.split(node_path__WEBPACK_IMPORTED_MODULE_2__.sep) : []) {
        current = node_path__WEBPACK_IMPORTED_MODULE_2__.join(current, part);
        const st = await lstat(current);
        if (!st?.isDirectory())
            throw new Error(`cannot restore ${p}: ${current} is no longer a folder`);
    }
}
/**
 * Puts every changed path back as recorded: extra paths removed (deepest first, links never followed),
 * folders, files (from their copies, by rename) and links recreated (shallowest first). Returns the paths
 * it could not put back (below a folder the command replaced by a link, for instance).
 */
async function restoreChanges(changes, blobs, roots) {
    const failed = [];
    const attempt = async (p, fn) => {
        try {
            await assertRealDirectories(roots, p);
            await fn();
        }
        catch (error) {
            failed.push(`${p}: ${error.message}`);
        }
    };
    const removals = changes
        .filter((c) => c.after.kind !== 'absent' && c.before.kind !== c.after.kind)
        .sort((a, b) => depth(b.path) - depth(a.path));
    for (const c of removals)
        await attempt(c.path, () => node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(c.path, { recursive: true, force: true }));
    const writes = changes
        .filter((c) => c.before.kind !== 'absent')
        .sort((a, b) => depth(a.path) - depth(b.path));
    for (const { before } of writes) {
        await attempt(before.path, async () => {
            if (before.kind === 'dir') {
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir(before.path, { recursive: true });
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.chmod(before.path, before.mode ?? 0o755);
            }
            else if (before.kind === 'file') {
                const tmp = `${before.path}.worktree-sandbox-restore`;
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(tmp, { recursive: true, force: true });
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.copyFile(node_path__WEBPACK_IMPORTED_MODULE_2__.join(blobs, before.sha256), tmp);
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.chmod(tmp, before.mode ?? 0o644);
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rename(tmp, before.path);
            }
            else if (before.kind === 'symlink') {
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(before.path, { recursive: true, force: true });
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.symlink(before.target, before.path);
            }
        });
    }
    return failed;
}
/** One change said in the parent's terms (`.git/hooks/x was added by the command: removed`). Pure. */
function describeFileChange(change, parentPath, options = {}) {
    let where = node_path__WEBPACK_IMPORTED_MODULE_2__.relative(parentPath, change.path);
    if (options.hostPath && change.path.startsWith(options.hostPath + node_path__WEBPACK_IMPORTED_MODULE_2__.sep))
        where = `the worktree's ${node_path__WEBPACK_IMPORTED_MODULE_2__.relative(options.hostPath, change.path)}`;
    const verb = { added: 'was added', removed: 'was removed', changed: 'was changed' }[change.change];
    const undo = { added: 'removed', removed: 'restored', changed: 'restored' }[change.change];
    return `${where} ${verb} by the command${options.detail ? ` (${options.detail})` : ''}: ${undo}`;
}


/***/ }),

/***/ 3946:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Eb: () => (/* binding */ ADMIN_FILES),
/* harmony export */   n$: () => (/* binding */ LedgerStore)
/* harmony export */ });
/* unused harmony export guardStateDirectory */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _lock_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(9188);
/* harmony import */ var _naming_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8499);
/* harmony import */ var _settings_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(8750);
// The git guards of one parent repository share one ledger. Commands of several sandboxes of a parent run
// at the same time, and each container can write the parent's whole .git; so there is one trusted state
// per parent, not one per guard: what .git held before any of those containers started (config with its
// credentials, hooks, info/, HEAD, index, the worktrees' admin files, every ref), what the containers see
// instead (the config without credentials), and the guards whose commands may be running.
//
// The first guard to open writes the ledger, the last one to close puts the trusted state back (the
// credentials with it) and removes it. In between, every change the action itself makes to that metadata
// (a sandbox created or removed, a branch fetched, pushed, committed) is announced into it
// (metadata-changes.ts), so that no guard takes it for a command's doing.
//
// It lives on the host, in the state folder, which no container mounts, and is guarded by a lock of its
// own there: the repository lock lives in .git, where a container could break it.






/** The files of a worktree's admin folder the guards watch (HEAD and index are its own command's). */
const ADMIN_FILES = ['config.worktree', 'gitdir', 'commondir', 'locked'];
/** The host-only folder of the git guards' records (per user; never mounted into a container). */
function guardStateDirectory(stateDir = (0,_settings_js__WEBPACK_IMPORTED_MODULE_5__/* .defaultStateDir */ .yD)(process.env)) {
    return node_path__WEBPACK_IMPORTED_MODULE_2__.join(stateDir, 'guard');
}
class LedgerStore {
    projectDir;
    constructor(
    /** `<state>/guard/<project>`: the guards' own records are its sandbox-named subfolders. */
    projectDir) {
        this.projectDir = projectDir;
    }
    /** The ledger of one parent. Sandbox names never start with a dot, so `.ledger` is no sandbox's. */
    static of(parentPath, stateDir) {
        return LedgerStore.at(node_path__WEBPACK_IMPORTED_MODULE_2__.join(guardStateDirectory(stateDir), (0,_naming_js__WEBPACK_IMPORTED_MODULE_4__/* .projectName */ .j1)(parentPath)));
    }
    /** The ledger beside the guards' own records in `projectDir`. */
    static at(projectDir) {
        return new LedgerStore(projectDir);
    }
    get dir() {
        return node_path__WEBPACK_IMPORTED_MODULE_2__.join(this.projectDir, '.ledger');
    }
    get blobs() {
        return node_path__WEBPACK_IMPORTED_MODULE_2__.join(this.dir, 'blobs');
    }
    get file() {
        return node_path__WEBPACK_IMPORTED_MODULE_2__.join(this.dir, 'ledger.json');
    }
    /** Runs `fn` holding the ledger's lock (a sibling of the project folder, so that folder can go). */
    async withLock(fn) {
        return (0,_lock_js__WEBPACK_IMPORTED_MODULE_3__/* .withLockFile */ .Q5)(`${this.projectDir}.lock`, `the git guard's ledger ${this.dir}`, fn);
    }
    async exists() {
        return node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.lstat(this.file).then(() => true, () => false);
    }
    async load() {
        const text = await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readFile(this.file, 'utf8').catch(() => undefined);
        return text === undefined ? undefined : JSON.parse(text);
    }
    /** Prepares an empty ledger folder (0700). */
    async create() {
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(this.dir, { recursive: true, force: true });
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.mkdir(this.blobs, { recursive: true, mode: 0o700 });
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.chmod(this.projectDir, 0o700);
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.chmod(this.dir, 0o700);
    }
    /** Written by rename: never half-written, whenever the process is killed. */
    save(ledger) {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeFileSync)(`${this.file}.tmp`, JSON.stringify(ledger), { mode: 0o600 });
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.renameSync)(`${this.file}.tmp`, this.file);
    }
    async remove() {
        // The record goes first: a ledger without its blobs must never be read.
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(this.file, { force: true });
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rm(this.dir, { recursive: true, force: true });
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.rmdir(this.projectDir).catch(() => undefined);
    }
}


/***/ }),

/***/ 9689:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Cj: () => (/* binding */ DISPLACED_NAMESPACE),
/* harmony export */   Ie: () => (/* binding */ planRefFixes),
/* harmony export */   MO: () => (/* binding */ looseRefNames),
/* harmony export */   QO: () => (/* binding */ removeLooseRef),
/* harmony export */   Zd: () => (/* binding */ applyRefFixes),
/* harmony export */   n6: () => (/* binding */ readRefs)
/* harmony export */ });
/* unused harmony export describeRefFix */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The parent's refs are shared by every worktree: a container could move `main`, retag a release, or move
// `origin/<branch>` so that unpushed work looks pushed. Refs are recorded before the command and every
// change outside the sandbox's own branch is undone after it; what a moved or new ref pointed at is kept
// under refs/worktree-sandbox/displaced/, so undoing never loses a commit.


const DISPLACED_NAMESPACE = 'refs/worktree-sandbox/displaced/';
async function readRefs(git, cwd) {
    const out = await git.run(cwd, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(symref)']);
    return out
        .split('\n')
        .filter(Boolean)
        .map((line) => {
        const [name, objectName, symref] = line.split('\0');
        return { name, value: symref ? `ref: ${symref}` : objectName };
    });
}
/** Names of loose ref files, read from disk: finds refs that for-each-ref skips (broken ones). */
async function looseRefNames(gitDir) {
    const names = [];
    const walk = async (dir, prefix) => {
        const entries = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
            const name = `${prefix}/${entry.name}`;
            if (entry.isDirectory())
                await walk(node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, entry.name), name);
            else
                names.push(name);
        }
    };
    await walk(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'refs'), 'refs');
    return names.sort();
}
/** Which ref changes to undo (pure). */
function planRefFixes(before, after, policy) {
    const was = new Map(before.map((r) => [r.name, r.value]));
    const now = new Map(after.map((r) => [r.name, r.value]));
    const own = policy.ownBranch ? `refs/heads/${policy.ownBranch}` : undefined;
    const theirs = new Set(policy.openBranches.filter(Boolean).map((b) => `refs/heads/${b}`));
    const fixes = [];
    for (const name of [...new Set([...was.keys(), ...now.keys()])].sort()) {
        const restore = was.get(name);
        const displaced = now.get(name);
        if (restore === displaced || theirs.has(name))
            continue;
        if (name === own && displaced !== undefined)
            continue;
        if (name.startsWith(DISPLACED_NAMESPACE) && restore === undefined)
            continue;
        fixes.push({ name, restore, displaced });
    }
    return fixes;
}
function describeRefFix(fix, keptAs) {
    const short = (v) => (v?.startsWith('ref: ') ? v : v?.slice(0, 12));
    const kept = keptAs ? `; what it pointed at is kept as ${keptAs}` : '';
    if (fix.restore === undefined)
        return `ref ${fix.name} was created (${short(fix.displaced)}): deleted${kept}`;
    if (fix.displaced === undefined)
        return `ref ${fix.name} was deleted: restored at ${short(fix.restore)}`;
    return `ref ${fix.name} was moved from ${short(fix.restore)} to ${short(fix.displaced)}: restored${kept}`;
}
/** Carries the fixes out, one ref at a time (one failure does not stop the others). Returns what it did. */
async function applyRefFixes(git, cwd, gitDir, fixes, stamp) {
    const done = [];
    const failed = [];
    const msg = ['-m', 'worktree-sandbox: undo a change made by the sandboxed command'];
    for (const fix of fixes) {
        let keptAs;
        if (fix.displaced && !fix.displaced.startsWith('ref: ')) {
            const name = `${DISPLACED_NAMESPACE}${stamp}/${fix.name}`;
            const kept = await git.exec(cwd, ['update-ref', ...msg, '--', name, fix.displaced]);
            if (kept.exitCode === 0)
                keptAs = name;
        }
        // --no-deref: a ref the command turned into a symbolic ref is replaced, not written through.
        const args = fix.restore === undefined
            ? ['update-ref', ...msg, '--no-deref', '-d', '--', fix.name]
            : fix.restore.startsWith('ref: ')
                ? ['symbolic-ref', ...msg, '--', fix.name, fix.restore.slice(5)]
                : ['update-ref', ...msg, '--no-deref', '--', fix.name, fix.restore];
        let ok = (await git.exec(cwd, args)).exitCode === 0;
        if (!ok && fix.restore === undefined)
            ok = await removeLooseRef(gitDir, fix.name);
        (ok ? done : failed).push(describeRefFix(fix, keptAs));
    }
    return { done, failed };
}
/** Deletes a loose ref file git refuses to touch (an invalid name planted on disk). */
async function removeLooseRef(gitDir, name) {
    const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, name);
    const rel = node_path__WEBPACK_IMPORTED_MODULE_1__.relative(node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'refs'), file);
    if (!name.startsWith('refs/') || rel.startsWith('..') || node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(rel))
        return false;
    const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(file)).catch(() => undefined);
    if (real !== node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(file))
        return false;
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(file, { force: true });
    return true;
}


/***/ }),

/***/ 8374:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  eg: () => (/* binding */ GitGuard),
  l_: () => (/* binding */ guardDirectory),
  A9: () => (/* binding */ recoverGuard),
  sg: () => (/* binding */ runGuarded),
  yk: () => (/* binding */ verifyParent)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(3024);
// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __nccwpck_require__(8161);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
;// CONCATENATED MODULE: ./src/credentials.ts
// Credentials persisted in the parent's .git/config are readable by the container, which mounts .git
// read-write: actions/checkout (v4, v5) writes `http.<server>/.extraheader = AUTHORIZATION: basic <token>`
// there, others put a token in a remote URL or a credential helper, and v6 includes a credentials file
// through `includeIf`. For the container's lifetime the config holds none of these; the git guard puts the
// original bytes back as soon as the container is gone.

/** Parses `git config --null --list` output: `key\nvalue\0` per entry (`key\0` for a key without value). */
function parseConfigList(text) {
    return text
        .split('\0')
        .filter(Boolean)
        .map((item) => {
        const nl = item.indexOf('\n');
        return nl < 0 ? { key: item, value: '' } : { key: item.slice(0, nl), value: item.slice(nl + 1) };
    });
}
const USERINFO_URL = /^([a-z][a-z0-9+.-]*:\/\/)([^/@\s]+)@/i;
/** The section part of a key (`url.https://x@h/` of `url.https://x@h/.insteadof`). */
function sectionOf(key) {
    return key.slice(0, key.lastIndexOf('.'));
}
/** Keys whose value is, or points at, a credential. */
function isCredentialKey(key) {
    const lower = key.toLowerCase();
    const section = lower.split('.')[0];
    const name = lower.slice(lower.lastIndexOf('.') + 1);
    if (section === 'credential')
        return true;
    if (section === 'http' && (name === 'extraheader' || name === 'cookiefile'))
        return true;
    if ((section === 'include' || section === 'includeif') && name === 'path')
        return true;
    return false;
}
/** Secrets carried by one entry: an auth header's credentials (and the token inside), a URL's password. */
function secretsOf(entry) {
    const found = [];
    const header = /^\s*authorization:\s*(basic|bearer|token)\s+(\S+)/i.exec(entry.value);
    if (header) {
        found.push(header[2]);
        if (header[1].toLowerCase() === 'basic') {
            const decoded = Buffer.from(header[2], 'base64').toString('utf8');
            const colon = decoded.indexOf(':');
            if (colon >= 0 && colon < decoded.length - 1)
                found.push(decoded.slice(colon + 1));
        }
    }
    for (const text of [entry.value, sectionOf(entry.key)]) {
        const url = USERINFO_URL.exec(text);
        if (url) {
            const colon = url[2].indexOf(':');
            found.push(colon >= 0 ? url[2].slice(colon + 1) : url[2]);
        }
    }
    return found.filter((s) => s.length >= 4);
}
/** The secrets a config file holds (read with includes off), to be masked in every log. */
async function findSecrets(git, configFile) {
    const out = await git.exec('/', ['config', '--file', configFile, '--no-includes', '--null', '--list']);
    return [...new Set(parseConfigList(out.stdout).flatMap(secretsOf))];
}
/** A copy of `configPath` without credentials, made with git itself in `scratch` (a host-only file). */
async function stripCredentials(git, configPath, scratch) {
    await promises_.copyFile(configPath, scratch);
    const list = async () => parseConfigList(await git.run('/', ['config', '--file', scratch, '--no-includes', '--null', '--list']));
    const entries = await list();
    const secrets = [...new Set(entries.flatMap(secretsOf))];
    const stripped = [];
    const edit = (args) => git.run('/', ['config', '--file', scratch, ...args]);
    const sections = new Set(entries.map((e) => sectionOf(e.key)).filter((s) => USERINFO_URL.test(s)));
    for (const section of sections) {
        await edit(['--remove-section', '--', section]);
        stripped.push(section.replace(USERINFO_URL, '$1***@'));
    }
    for (const key of new Set(entries.map((e) => e.key))) {
        if (sections.has(sectionOf(key)))
            continue;
        const values = entries.filter((e) => e.key === key).map((e) => e.value);
        if (isCredentialKey(key)) {
            await edit(['--unset-all', '--', key]);
            stripped.push(key);
        }
        else if (values.some((v) => USERINFO_URL.test(v))) {
            await edit(['--unset-all', '--', key]);
            for (const value of values)
                await edit(['--add', '--', key, value.replace(USERINFO_URL, '$1')]);
            stripped.push(key);
        }
    }
    const content = await promises_.readFile(scratch);
    const text = content.toString('utf8');
    const left = secrets.filter((s) => text.includes(s));
    if (left.length) {
        throw new Error(`The parent's .git/config holds a credential that could not be removed before the command runs (in a comment or an unusual entry): remove it (actions/checkout: persist-credentials: false) and run again.`);
    }
    await promises_.rm(scratch, { force: true });
    return { content, stripped, secrets };
}

;// CONCATENATED MODULE: ./src/guard-attribution.ts
// Who may have made a change a check found. Checks run only when a guard opens or closes, so a change
// found at one was made since the previous check, while the same guards were open: their commands are the
// suspects, and nothing can tell them apart. Each suspect's run reports the change; when there were others,
// the report says so rather than blame one command for another's doing. (A guard opening is no suspect:
// its container has not started.)
/** `violation` as the run of sandbox `reader` reports it. Pure. */
function attribute(violation, reader, suspects, at) {
    const others = suspects.filter((s) => s !== reader);
    const found = at.sandbox === reader
        ? ''
        : {
            prepare: ` (found when another run on this repository began)`,
            open: ` (found when the command of sandbox ${at.sandbox} was about to start)`,
            close: ` (found when the command of sandbox ${at.sandbox} had ended)`,
            check: ` (found when the command of sandbox ${at.sandbox} had ended)`,
            recover: ` (found when the interrupted run of sandbox ${at.sandbox} was finished)`,
        }[at.kind];
    const also = others.length
        ? `; the command${others.length > 1 ? 's' : ''} of sandbox${others.length > 1 ? 'es' : ''} ${others.join(', ')} ran at the same time and may have made this change instead`
        : '';
    return `${violation}${found}${also}`;
}

// EXTERNAL MODULE: ./src/guard-files.ts
var guard_files = __nccwpck_require__(9084);
// EXTERNAL MODULE: ./src/guard-refs.ts
var guard_refs = __nccwpck_require__(9689);
;// CONCATENATED MODULE: ./src/guard-checkpoint.ts
// One check of the parent's .git against the ledger: what differs was done by a command whose guard is
// open (the action's own changes are in the ledger already), so it is undone and described. Checks run
// when a guard opens (before its container starts), when one closes (after its container is gone), and
// when an interrupted run's guard is finished; always under the repository lock and the ledger's lock.
// Pure file operations come first: no git command runs on the parent before its config, hooks and info/
// are back.





/** Compares, restores and describes; updates `ledger` (the closing guard's branch, vanished entries). */
async function checkpoint(o) {
    const { ledger } = o;
    const violations = [];
    const after = [];
    for (const root of ledger.roots)
        after.push(...(await (0,guard_files/* readState */.un)(root.path, root.recursive)));
    const vanished = await vanishedEntries(ledger, violations);
    const packedRefs = external_node_path_.join(ledger.gitDir, 'packed-refs');
    const compared = (records) => records.filter((r) => r.path !== packedRefs && !vanished.has(external_node_path_.dirname(r.path)));
    const exposedNow = ledger.files.map((f) => ledger.exposed.find((e) => e.path === f.path) ?? f);
    const unexpected = (0,guard_files/* diffStates */.oD)(compared(exposedNow), compared(after));
    const configPath = external_node_path_.join(ledger.gitDir, 'config');
    const configDetail = unexpected.some((c) => c.path === configPath)
        ? await describeConfigChange(o, configPath, exposedNow.find((f) => f.path === configPath))
        : '';
    const target = o.final ? ledger.files : exposedNow;
    const failed = await (0,guard_files/* restoreChanges */.Yi)((0,guard_files/* diffStates */.oD)(compared(target), compared(after)), o.blobs, [
        ledger.gitDir,
    ]);
    for (const change of unexpected) {
        const detail = change.path === configPath ? configDetail : undefined;
        violations.push((0,guard_files/* describeFileChange */.yb)(change, ledger.parentPath, { detail }));
    }
    for (const f of failed)
        violations.push(`could not put back ${f}`);
    const refsNow = await readRefsOrRestore(o, packedRefs, violations);
    const closingBranch = o.closing?.branch;
    const fixes = (0,guard_refs/* planRefFixes */.Ie)(ledger.refs, refsNow, {
        ownBranch: closingBranch,
        openBranches: ledger.open.filter((g) => g !== o.closing).map((g) => g.branch),
    });
    const applied = await (0,guard_refs/* applyRefFixes */.Zd)(o.git, ledger.parentPath, ledger.gitDir, fixes, o.label);
    violations.push(...applied.done, ...applied.failed.map((f) => `could not undo: ${f}`));
    const listed = new Set([
        ...ledger.looseRefs,
        ...ledger.refs.map((r) => r.name),
        ...refsNow.map((r) => r.name),
    ]);
    for (const name of await (0,guard_refs/* looseRefNames */.MO)(ledger.gitDir)) {
        if (listed.has(name) || name.startsWith(guard_refs/* DISPLACED_NAMESPACE */.Cj))
            continue;
        const removed = await (0,guard_refs/* removeLooseRef */.QO)(ledger.gitDir, name);
        violations.push(`unreadable ref file ${name} was created: ${removed ? 'deleted' : 'could not be deleted'}`);
    }
    if (closingBranch) {
        // The closing command's work on its own branch is now the trusted state (a deletion was undone above).
        const name = `refs/heads/${closingBranch}`;
        const now = refsNow.find((r) => r.name === name);
        if (now)
            ledger.refs = [...ledger.refs.filter((r) => r.name !== name), now];
    }
    const notes = await detachFromRestoredRefs(ledger.open, fixes);
    return {
        violations,
        notes,
        configFailed: failed.some((f) => f.startsWith(`${configPath}:`)),
    };
}
/**
 * Admin folders of registered worktrees that are gone (or are no longer folders). They are never
 * recreated: putting back only the files the guard watches would leave a half registration, worse than
 * none. Each is reported once and the ledger takes it as gone.
 */
async function vanishedEntries(ledger, violations) {
    const worktrees = external_node_path_.join(ledger.gitDir, 'worktrees');
    const vanished = new Set();
    for (const record of ledger.files) {
        const adminDir = external_node_path_.dirname(record.path);
        if (external_node_path_.dirname(adminDir) !== worktrees || record.kind === 'absent' || vanished.has(adminDir))
            continue;
        const st = await promises_.lstat(adminDir).catch(() => undefined);
        if (st?.isDirectory())
            continue;
        vanished.add(adminDir);
        if (st)
            await promises_.rm(adminDir, { force: true });
        violations.push(`${external_node_path_.relative(ledger.parentPath, adminDir)} (a worktree's registration) was ${st ? 'replaced by something other than a folder' : 'removed'} by the command: ${st ? 'removed; ' : ''}not recreated`);
    }
    ledger.files = ledger.files.map((f) => vanished.has(external_node_path_.dirname(f.path)) ? { path: f.path, kind: 'absent' } : f);
    return vanished;
}
async function readRefsOrRestore(o, packedRefs, violations) {
    try {
        return await (0,guard_refs/* readRefs */.n6)(o.git, o.ledger.parentPath);
    }
    catch (error) {
        // An unreadable packed-refs: put the recorded one back, then read again (ref fixes follow).
        violations.push(`the refs could not be read (${error.message.split('\n')[0]}): packed-refs restored`);
        await (0,guard_files/* restoreChanges */.Yi)((0,guard_files/* diffStates */.oD)(o.ledger.files.filter((f) => f.path === packedRefs), await (0,guard_files/* readState */.un)(packedRefs, false)), o.blobs, [o.ledger.gitDir]);
        return (0,guard_refs/* readRefs */.n6)(o.git, o.ledger.parentPath);
    }
}
/**
 * A sandbox whose HEAD is on a ref just put back would silently point at other commits: its HEAD is
 * detached where the ref was, so its work stays checked out.
 */
async function detachFromRestoredRefs(open, fixes) {
    const notes = new Map();
    for (const guard of open) {
        const headFile = external_node_path_.join(guard.adminDir, 'HEAD');
        const head = await promises_.readFile(headFile, 'utf8').catch(() => '');
        const target = /^ref: (\S+)/.exec(head)?.[1];
        const fix = fixes.find((f) => f.name === target && f.displaced && !f.displaced.startsWith('ref: '));
        if (!fix)
            continue;
        const tmp = `${headFile}.worktree-sandbox-restore`;
        await promises_.writeFile(tmp, `${fix.displaced}\n`);
        await promises_.rename(tmp, headFile);
        notes.set(guard.sandbox, [
            `The sandbox's HEAD was on ${target}, which was put back: HEAD is now detached at ${fix.displaced.slice(0, 12)}, so its work stays checked out.`,
        ]);
    }
    return notes;
}
/** Which config keys were added, removed or changed (read with git from a copy, includes off). */
async function describeConfigChange(o, configPath, expected) {
    const current = await promises_.lstat(configPath).catch(() => undefined);
    if (!current?.isFile())
        return current ? 'replaced by something other than a file' : 'deleted';
    const copy = external_node_path_.join(o.scratch, 'config.after');
    await promises_.copyFile(configPath, copy);
    const read = async (file) => {
        const out = await o.git.exec('/', ['config', '--file', file, '--no-includes', '--null', '--list']);
        return parseConfigList(out.stdout);
    };
    const before = expected?.sha256 ? await read(external_node_path_.join(o.blobs, expected.sha256)) : [];
    const after = await read(copy);
    await promises_.rm(copy, { force: true });
    const flat = (entries) => new Map([...new Set(entries.map((e) => e.key))].map((k) => [
        k,
        entries
            .filter((e) => e.key === k)
            .map((e) => e.value)
            .join('\n'),
    ]));
    const b = flat(before);
    const a = flat(after);
    const parts = [];
    for (const key of new Set([...b.keys(), ...a.keys()])) {
        if (!b.has(key))
            parts.push(`${key} added`);
        else if (!a.has(key))
            parts.push(`${key} removed`);
        else if (b.get(key) !== a.get(key))
            parts.push(`${key} changed`);
    }
    return parts.join(', ') || 'formatting only';
}

// EXTERNAL MODULE: ./src/guard-ledger.ts
var guard_ledger = __nccwpck_require__(3946);
// EXTERNAL MODULE: ./src/lock.ts
var lock = __nccwpck_require__(9188);
// EXTERNAL MODULE: ./src/metadata-changes.ts
var metadata_changes = __nccwpck_require__(8482);
// EXTERNAL MODULE: ./src/worktree-metadata.ts
var worktree_metadata = __nccwpck_require__(9662);
;// CONCATENATED MODULE: ./src/guard.ts
// The git guard. The container mounts the parent's .git read-write (it must, to commit), so it can plant
// what the host's next git command, or the runner's next job, would trust: hooks, config (core.fsmonitor,
// filters, includeIf, credential helpers), info/attributes, a worktree's config.worktree or .git file,
// moved branches and tags. Before the command the guard opens: the parent's trusted state is recorded (in
// a host-only folder the container never sees) and the credentials are taken out of .git/config. After
// the container is gone the guard closes: every change is put back and reported as a violation.
//
// Several sandboxes of one parent run at once, so the guards of a parent share one ledger
// (guard-ledger.ts): the first to open records the trusted state and takes the credentials out, the last
// to close puts them back; the action's own changes meanwhile are announced into it (metadata-changes.ts);
// each guard opening or closing checks the parent against it (guard-checkpoint.ts), under the repository
// lock, and the commands of the guards open since the previous check are the suspects of what it finds
// (guard-attribution.ts). The commands themselves run in parallel.
//
// A guard's own record (its container, a disk sandbox's `.git` file) survives the action being killed: the
// post step, the next run on the same sandbox, or any run of the parent that finds the sandbox's lock free,
// removes the container and closes the guard.













const RECORD = 'record.json';
/** The guard's folder for one sandbox: on the host, outside everything mounted into the container. */
function guardDirectory(location) {
    return external_node_path_.join(guard_ledger/* LedgerStore */.n$.of(location.parent.path).projectDir, location.name);
}
class GitGuard {
    dir;
    record;
    constructor(dir, record) {
        this.dir = dir;
        this.record = record;
    }
    get blobs() {
        return external_node_path_.join(this.dir, 'blobs');
    }
    get store() {
        return guard_ledger/* LedgerStore */.n$.at(external_node_path_.dirname(this.dir));
    }
    /** Opens the guard: the parent checked (or its trusted state recorded) and the credentials taken out. */
    static async take(git, engine, location, dir, ui) {
        const { parent } = location;
        for (const mounted of [parent.path, location.hostPath].filter((p) => !!p)) {
            if (dir === mounted || dir.startsWith(mounted + external_node_path_.sep))
                throw new Error(`The git guard's folder ${dir} is inside ${mounted}, which the container mounts.`);
        }
        if (await promises_.lstat(dir).catch(() => undefined))
            throw new Error(`${dir} is left by an interrupted run and was not recovered.`);
        const entry = await (0,worktree_metadata/* findWorktreeEntry */.lc)(parent.gitDir, location.worktreePath);
        if (!entry)
            throw new Error(`Sandbox ${location.name} has no worktree registration in ${parent.path}.`);
        await promises_.mkdir(external_node_path_.join(dir, 'blobs'), { recursive: true, mode: 0o700 });
        await promises_.chmod(dir, 0o700);
        const gitFile = location.hostPath ? external_node_path_.join(location.hostPath, '.git') : undefined;
        const guard = new GitGuard(dir, {
            version: 2,
            created: new Date().toISOString(),
            sandbox: location.name,
            parentPath: parent.path,
            gitDir: parent.gitDir,
            hostPath: location.hostPath,
            files: gitFile ? await (0,guard_files/* readState */.un)(gitFile, false, external_node_path_.join(dir, 'blobs')) : [],
        });
        guard.save();
        const store = guard.store;
        let opened = false;
        try {
            await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, () => store.withLock(async () => {
                let ledger = await store.load();
                if (ledger)
                    ledger = await finishInterrupted(git, engine, store, ledger, ui, location.name);
                let stripped;
                if (!ledger)
                    ({ ledger, stripped } = await openLedger(git, store, parent, ui));
                else
                    await joinLedger(git, store, ledger, location.name, ui);
                // Its own registration is watched from the first check on (one made by a run that was then
                // killed, before it could announce it, is taken as it is now).
                if (!ledger.roots.some((r) => r.path === external_node_path_.join(entry.adminDir, 'gitdir')))
                    await (0,metadata_changes/* watchEntry */.Os)(ledger, entry.adminDir, store.blobs);
                ledger.open = ledger.open.filter((g) => g.dir !== dir);
                ledger.open.push({
                    sandbox: location.name,
                    branch: location.branch,
                    dir,
                    adminDir: entry.adminDir,
                    since: new Date().toISOString(),
                    pid: process.pid,
                    host: external_node_os_.hostname(),
                    found: [],
                    notes: [],
                });
                store.save(ledger);
                opened = true;
                if (stripped) {
                    // Written only once the ledger (with the original) is safely on disk.
                    const configPath = external_node_path_.join(parent.gitDir, 'config');
                    const tmp = `${configPath}.worktree-sandbox-restore`;
                    await promises_.writeFile(tmp, stripped.content, { mode: stripped.mode });
                    await promises_.rename(tmp, configPath);
                    ui.info(`Credentials taken out of .git/config while the command runs (${ledger.strippedKeys.join(', ')}); they are put back afterwards.`);
                }
            }));
        }
        catch (error) {
            if (!opened)
                await guard.discard();
            throw error;
        }
        return guard;
    }
    static async load(dir) {
        const text = await promises_.readFile(external_node_path_.join(dir, RECORD), 'utf8').catch(() => undefined);
        if (text === undefined)
            return undefined;
        const record = JSON.parse(text);
        return record.version === 2 ? new GitGuard(dir, record) : undefined;
    }
    /** Remembers the container's name, so that a later recovery removes it before restoring. */
    noteContainer(name) {
        this.record.container = name;
        this.save();
    }
    get container() {
        return this.record.container;
    }
    save() {
        // Synchronous (noteContainer is called from a synchronous callback); a rename, so never half-written.
        const file = external_node_path_.join(this.dir, RECORD);
        (0,external_node_fs_.writeFileSync)(`${file}.tmp`, JSON.stringify(this.record), { mode: 0o600 });
        (0,external_node_fs_.renameSync)(`${file}.tmp`, file);
    }
    /**
     * Checks the parent, restores and reports. With `gone` (the container is confirmed removed) the guard
     * closes; otherwise it checks and stays open, for the post step or the next run to close.
     */
    async finish(git, engine, gone, ui) {
        const { gitDir } = this.record;
        const store = this.store;
        return (0,lock/* withRepositoryLock */.aZ)(gitDir, () => store.withLock(async () => {
            const report = { violations: await this.restoreOwnFiles(), notes: [] };
            const mine = (l) => l?.open.find((g) => g.dir === this.dir);
            let ledger = await store.load();
            if (mine(ledger))
                ledger = await finishInterrupted(git, engine, store, ledger, ui, this.record.sandbox);
            const me = mine(ledger);
            if (!ledger || !me) {
                report.notes.push('The git guard of this run was closed by another run of this repository, which found its sandbox lock free: that run reported what it found.');
                if (gone)
                    await this.discard();
                return report;
            }
            const others = ledger.open.filter((g) => g !== me);
            const final = gone && others.length === 0;
            const suspects = ledger.open.map((g) => g.sandbox);
            const result = await checkpoint({
                git,
                ledger,
                blobs: store.blobs,
                scratch: store.dir,
                closing: gone ? me : undefined,
                final,
                label: displacedLabel(me.sandbox),
            });
            const event = { kind: gone ? 'close' : 'check', sandbox: me.sandbox };
            const share = distribute(ledger, result, suspects, event, me);
            report.violations.push(...me.found, ...share.violations);
            report.notes.push(...me.notes, ...share.notes);
            me.found = [];
            me.notes = [];
            if (gone)
                ledger.open = others;
            report.notes.push(...(await settle(store, ledger, final, result)));
            if (gone && others.length && ledger.strippedKeys.length)
                report.notes.push(`The credentials stay out of .git/config while the command of ${others.map((g) => `sandbox ${g.sandbox}`).join(', ')} runs; the last command to end puts them back.`);
            if (gone)
                await this.discard();
            return report;
        }));
    }
    /** The worktree's `.git` file of a disk sandbox, put back if its command changed it. */
    async restoreOwnFiles() {
        const { hostPath, files, parentPath } = this.record;
        if (!hostPath || !files.length)
            return [];
        const changes = (0,guard_files/* diffStates */.oD)(files, await (0,guard_files/* readState */.un)(external_node_path_.join(hostPath, '.git'), false));
        const failed = await (0,guard_files/* restoreChanges */.Yi)(changes, this.blobs, [hostPath]);
        return [
            ...changes.map((c) => (0,guard_files/* describeFileChange */.yb)(c, parentPath, { hostPath })),
            ...failed.map((f) => `could not put back ${f}`),
        ];
    }
    async discard() {
        await promises_.rm(this.dir, { recursive: true, force: true });
        // The project's folder goes with its last record (rmdir refuses while anything else is in it).
        await promises_.rmdir(external_node_path_.dirname(this.dir)).catch(() => undefined);
    }
}
/** The ledger of the first guard to open: the parent's trusted state, and its config without credentials. */
async function openLedger(git, store, parent, ui) {
    await store.create();
    const g = parent.gitDir;
    const roots = [
        ...['config', 'HEAD', 'index', 'objects/info/alternates', 'packed-refs'].map((f) => ({
            path: external_node_path_.join(g, f),
            recursive: false,
        })),
        { path: external_node_path_.join(g, 'hooks'), recursive: true },
        { path: external_node_path_.join(g, 'info'), recursive: true },
    ];
    const ledger = {
        version: 1,
        created: new Date().toISOString(),
        parentPath: parent.path,
        gitDir: g,
        roots,
        files: [],
        exposed: [],
        strippedKeys: [],
        refs: await (0,guard_refs/* readRefs */.n6)(git, parent.path),
        looseRefs: await (0,guard_refs/* looseRefNames */.MO)(g),
        open: [],
    };
    for (const root of roots)
        ledger.files.push(...(await (0,guard_files/* readState */.un)(root.path, root.recursive, store.blobs)));
    for (const entry of await (0,worktree_metadata/* listWorktreeEntries */.ue)(g))
        await (0,metadata_changes/* watchEntry */.Os)(ledger, entry.adminDir, store.blobs);
    const config = ledger.files.find((f) => f.path === external_node_path_.join(g, 'config'));
    if (config?.kind !== 'file' || !config.sha256)
        return { ledger };
    const result = await stripCredentials(git, external_node_path_.join(store.blobs, config.sha256), external_node_path_.join(store.dir, 'config.scratch'));
    for (const secret of result.secrets)
        ui.mask(secret);
    if (!result.stripped.length)
        return { ledger };
    const hash = (0,guard_files/* sha256 */.sc)(result.content);
    await promises_.writeFile(external_node_path_.join(store.blobs, hash), result.content, { mode: 0o600 });
    ledger.exposed.push({ ...config, sha256: hash });
    ledger.strippedKeys = result.stripped;
    return { ledger, stripped: { content: result.content, mode: config.mode } };
}
/** Another guard opens while some are open: what their commands changed so far is theirs, and undone. */
async function joinLedger(git, store, ledger, sandbox, ui) {
    const config = ledger.files.find((f) => f.path === external_node_path_.join(ledger.gitDir, 'config'));
    if (config?.sha256)
        for (const secret of await findSecrets(git, external_node_path_.join(store.blobs, config.sha256)))
            ui.mask(secret);
    const suspects = await checkForOthers(git, store, ledger, { kind: 'open', sandbox });
    if (ledger.strippedKeys.length && suspects.length)
        ui.info(`Credentials are out of .git/config already (${ledger.strippedKeys.join(', ')}), while the command of ${suspects.map((s) => `sandbox ${s}`).join(', ')} runs; the last command to end puts them back.`);
}
/** A check made for a run that is no suspect: what it finds goes to the open guards. Returns them. */
async function checkForOthers(git, store, ledger, at) {
    const suspects = ledger.open.map((g) => g.sandbox);
    const result = await checkpoint({
        git,
        ledger,
        blobs: store.blobs,
        scratch: store.dir,
        final: false,
        label: displacedLabel(at.sandbox),
    });
    distribute(ledger, result, suspects, at);
    return suspects;
}
/**
 * Before a run reads the parent to create or reuse a sandbox (the commit a new branch starts from, the
 * branch it checks out): with guards open, the parent is checked and what their commands changed is undone
 * (their runs report it), so a command cannot choose what another run builds on. Call it holding the
 * repository lock. `sandbox` is the run's own (an interrupted guard of it is left to recoverGuard). Costs
 * one `stat` when no guard is open.
 */
async function verifyParent(git, engine, parent, sandbox, ui) {
    const store = guard_ledger/* LedgerStore */.n$.of(parent.path);
    if (!(await store.exists()))
        return;
    await store.withLock(async () => {
        const loaded = await store.load();
        const ledger = loaded && (await finishInterrupted(git, engine, store, loaded, ui, sandbox));
        if (!ledger)
            return;
        await checkForOthers(git, store, ledger, { kind: 'prepare', sandbox });
        store.save(ledger);
    });
}
/**
 * Closes the guards whose runs were interrupted (their sandbox lock is free: no live run holds it), after
 * removing their containers; their reports go to this run's log. `self`, the sandbox of the run making
 * the check, is skipped. A ledger left with no open guard has its
 * trusted state put back. Returns the ledger, or undefined when it is gone.
 */
async function finishInterrupted(git, engine, store, ledger, ui, self) {
    for (const guard of [...ledger.open]) {
        // The run's own sandbox is left to its own recovery (recoverGuard, under its sandbox lock). A sandbox
        // lock lives in .git, where a command could remove it: the run's process must be gone too.
        if (guard.sandbox === self || isAlive(guard) || (await (0,lock/* isSandboxLocked */.up)(ledger.gitDir, guard.sandbox)))
            continue;
        let release;
        try {
            release = await (0,lock/* lockSandbox */.rj)(ledger.gitDir, guard.sandbox, 0);
        }
        catch {
            continue; // taken meanwhile: a live run
        }
        try {
            const record = await GitGuard.load(guard.dir);
            if (!(await ensureContainerGone(engine, record?.container))) {
                ui.warning(`The interrupted run on sandbox ${guard.sandbox} left its container ${record?.container}, which could not be removed: its git guard stays open.`);
                continue;
            }
            ui.info(`The run on sandbox ${guard.sandbox} was interrupted while its command ran: its git guard is closed here.`);
            const suspects = ledger.open.map((g) => g.sandbox);
            const final = ledger.open.length === 1;
            const result = await checkpoint({
                git,
                ledger,
                blobs: store.blobs,
                scratch: store.dir,
                closing: guard,
                final,
                label: displacedLabel(guard.sandbox),
            });
            const share = distribute(ledger, result, suspects, { kind: 'recover', sandbox: guard.sandbox }, guard);
            const own = record ? await record.restoreOwnFiles() : [];
            for (const v of [...guard.found, ...share.violations, ...own])
                ui.warning(`Sandbox boundary (interrupted run on sandbox ${guard.sandbox}): ${v}.`);
            ledger.open = ledger.open.filter((g) => g !== guard);
            for (const note of [...guard.notes, ...share.notes, ...(await settle(store, ledger, final, result))])
                ui.info(note);
            await promises_.rm(guard.dir, { recursive: true, force: true });
            if (!(await store.exists()))
                return undefined;
        }
        finally {
            await release();
        }
    }
    if (ledger.open.length)
        return ledger;
    // No guard open (one was killed between its ledger's writes): nothing runs, the trusted state goes back.
    const result = await checkpoint({
        git,
        ledger,
        blobs: store.blobs,
        scratch: store.dir,
        final: true,
        label: displacedLabel('interrupted'),
    });
    for (const v of result.violations)
        ui.warning(`Sandbox boundary (left by an interrupted run): ${v}.`);
    for (const note of await settle(store, ledger, true, result))
        ui.info(note);
    return (await store.exists()) ? ledger : undefined;
}
/**
 * Whether the process that opened `guard` still runs (this process counts as alive: another run in it may be
 * live). Known only on its own host; elsewhere the sandbox lock decides alone.
 */
function isAlive(guard) {
    if (guard.pid === process.pid)
        return true;
    if (guard.host !== external_node_os_.hostname())
        return false;
    try {
        process.kill(guard.pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/**
 * Saves the ledger, or, after the last guard's check (`final`), removes it. Kept when .git/config could
 * not be put back: it holds the only copy of the credentials, for the next run to put back.
 */
async function settle(store, ledger, final, result) {
    if (!final) {
        store.save(ledger);
        return [];
    }
    if (result.configFailed) {
        ledger.open = [];
        store.save(ledger);
        return [`.git/config could not be put back: its trusted copy stays in ${store.dir} for the next run.`];
    }
    await store.remove();
    return ledger.strippedKeys.length
        ? [`Put back the credentials taken out of .git/config (${ledger.strippedKeys.join(', ')}).`]
        : [];
}
/**
 * Hands what a check found to the suspects (the guards open before it; `me`'s share is returned, the
 * others keep theirs in the ledger until they close), and the notes to the sandboxes they concern.
 */
function distribute(ledger, result, suspects, at, me) {
    const mine = { violations: [], notes: [] };
    for (const guard of ledger.open) {
        const share = suspects.includes(guard.sandbox)
            ? result.violations.map((v) => attribute(v, guard.sandbox, suspects, at))
            : [];
        const notes = result.notes.get(guard.sandbox) ?? [];
        const to = guard === me ? mine : { violations: guard.found, notes: guard.notes };
        to.violations.push(...share);
        to.notes.push(...notes);
    }
    return mine;
}
/** Names the refs keeping what undone ref changes pointed at: when, and for which sandbox's check. */
function displacedLabel(sandbox) {
    const stamp = new Date().toISOString().replace(/[-:.]/g, '');
    return `${stamp}-${sandbox.replace(/\.\./g, '-')}`;
}
/**
 * Runs `fn` (the command) under the guard: afterwards, whether it succeeded or threw, the container is
 * made sure to be gone and the guard closes and reports. It stays open when the container's removal
 * cannot be confirmed (engine unreachable), for the post step or the next run.
 */
async function runGuarded(guard, git, engine, ui, fn) {
    let value;
    let failure;
    try {
        value = await fn();
    }
    catch (error) {
        failure = { error };
    }
    const report = await finishGuard(guard, git, engine, ui);
    if (failure)
        throw failure.error;
    return { value: value, guard: report };
}
async function finishGuard(guard, git, engine, ui) {
    const gone = await ensureContainerGone(engine, guard.container);
    const report = await guard.finish(git, engine, gone, ui);
    if (!gone)
        report.violations.push(`the container ${guard.container} could not be confirmed removed (is the engine reachable?): the git guard checks again in the post step or the next run`);
    for (const note of report.notes)
        ui.info(note);
    for (const violation of report.violations)
        ui.warning(`Sandbox boundary: ${violation}.`);
    return report;
}
async function ensureContainerGone(engine, container) {
    if (!container)
        return true;
    if ((await engine.containerExists(container)) === false)
        return true;
    await engine.removeContainer(container);
    return (await engine.containerExists(container)) === false;
}
/**
 * Finishes the work of a run that was killed while its command ran: removes its container, closes its
 * guard and reports. Does nothing when there is no record. Throws when the container cannot be removed.
 */
async function recoverGuard(git, engine, dir, ui) {
    const guard = await GitGuard.load(dir);
    if (!guard) {
        // A folder without a record: the run was killed while opening it, before the container existed.
        await promises_.rm(dir, { recursive: true, force: true });
        await promises_.rmdir(external_node_path_.dirname(dir)).catch(() => undefined);
        return undefined;
    }
    ui.info(`A run on this sandbox was interrupted while its command ran: checking what the command left.`);
    if (!(await ensureContainerGone(engine, guard.container)))
        throw new Error(`The container ${guard.container} of an interrupted run on this sandbox could not be removed: remove it, then run again.`);
    const report = await guard.finish(git, engine, true, ui);
    for (const note of report.notes)
        ui.info(note);
    for (const violation of report.violations)
        ui.warning(`Sandbox boundary (interrupted run): ${violation}.`);
    return report;
}


/***/ }),

/***/ 9188:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Q5: () => (/* binding */ withLockFile),
/* harmony export */   XB: () => (/* binding */ LockTimeoutError),
/* harmony export */   aZ: () => (/* binding */ withRepositoryLock),
/* harmony export */   rj: () => (/* binding */ lockSandbox),
/* harmony export */   up: () => (/* binding */ isSandboxLocked)
/* harmony export */ });
/* unused harmony exports LOCK_STALE_MS, lockDirectory */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var proper_lockfile__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3648);
/* harmony import */ var proper_lockfile__WEBPACK_IMPORTED_MODULE_3___default = /*#__PURE__*/__nccwpck_require__.n(proper_lockfile__WEBPACK_IMPORTED_MODULE_3__);
// Cross-process locks (proper-lockfile: an atomic mkdir whose mtime the holder refreshes, so a lock whose
// holder was killed goes stale and is taken over instead of blocking everyone forever).
//  - the repository lock serializes every change to a parent's worktree metadata;
//  - a sandbox lock is held by the run using that sandbox, so two runs never share one silently.




const LOCK_STALE_MS = 10_000;
const LOCK_UPDATE_MS = 2_000;
function lockDirectory(gitDir) {
    return node_path__WEBPACK_IMPORTED_MODULE_2__.join(gitDir, 'worktree-sandbox', 'locks');
}
function lockPath(gitDir, name) {
    return node_path__WEBPACK_IMPORTED_MODULE_2__.join(lockDirectory(gitDir), `${name}.lock`);
}
class LockTimeoutError extends Error {
    constructor(message) {
        super(message);
        this.name = 'LockTimeoutError';
    }
}
async function acquire(file, waitMs, describe, onWait) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(node_path__WEBPACK_IMPORTED_MODULE_2__.dirname(file), { recursive: true });
    const deadline = Date.now() + waitMs;
    let announced = false;
    for (;;) {
        try {
            const release = await proper_lockfile__WEBPACK_IMPORTED_MODULE_3___default().lock(file, {
                realpath: false,
                lockfilePath: file,
                stale: LOCK_STALE_MS,
                update: LOCK_UPDATE_MS,
                retries: 0,
                onCompromised: () => {
                    /* Another process took the lock over as stale: the holder was too slow; keep going. */
                },
            });
            const owner = {
                pid: process.pid,
                host: node_os__WEBPACK_IMPORTED_MODULE_1__.hostname(),
                since: new Date().toISOString(),
                run: process.env.GITHUB_RUN_ID,
            };
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(`${file}.owner`, JSON.stringify(owner)).catch(() => undefined);
            return async () => {
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(`${file}.owner`, { force: true }).catch(() => undefined);
                await release().catch(() => undefined);
            };
        }
        catch (error) {
            if (error.code !== 'ELOCKED')
                throw error;
            const owner = await readOwner(file);
            if (Date.now() >= deadline)
                throw new LockTimeoutError(describe(owner));
            if (!announced && onWait) {
                onWait(`Waiting: ${describe(owner)}`);
                announced = true;
            }
            await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
        }
    }
}
async function readOwner(file) {
    try {
        return JSON.parse(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(`${file}.owner`, 'utf8'));
    }
    catch {
        return undefined;
    }
}
function ownerText(owner) {
    return owner
        ? ` (process ${owner.pid} on ${owner.host}${owner.run ? `, run ${owner.run}` : ''}, since ${owner.since})`
        : '';
}
/** Runs `fn` holding the lock `file` (a folder proper-lockfile makes); `what` names what it protects. */
async function withLockFile(file, what, fn, waitMs = 120_000) {
    const release = await acquire(file, waitMs, (owner) => `${what} is locked by another run${ownerText(owner)}`);
    try {
        return await fn();
    }
    finally {
        await release();
    }
}
/**
 * Runs `fn` holding the parent repository's metadata lock. Every change the action makes to the parent's
 * shared metadata (worktree registrations, refs, config) and every check of the git guard happens under it.
 */
async function withRepositoryLock(gitDir, fn, waitMs = 120_000) {
    return withLockFile(lockPath(gitDir, 'repository'), `the worktree metadata of ${node_path__WEBPACK_IMPORTED_MODULE_2__.dirname(gitDir)}`, fn, waitMs);
}
async function lockSandbox(gitDir, sandbox, waitMs, onWait) {
    return acquire(lockPath(gitDir, `sandbox-${sandbox}`), waitMs, (owner) => `sandbox ${sandbox} is in use by another run${ownerText(owner)}; two runs never share a sandbox`, onWait);
}
/** True while a live run holds the sandbox's lock (a lock whose holder died is not counted). */
async function isSandboxLocked(gitDir, sandbox) {
    const file = lockPath(gitDir, `sandbox-${sandbox}`);
    try {
        return await proper_lockfile__WEBPACK_IMPORTED_MODULE_3___default().check(file, { realpath: false, lockfilePath: file, stale: LOCK_STALE_MS });
    }
    catch {
        return false;
    }
}


/***/ }),

/***/ 8482:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   B5: () => (/* binding */ guardsOpen),
/* harmony export */   Os: () => (/* binding */ watchEntry),
/* harmony export */   g3: () => (/* binding */ announceRefs),
/* harmony export */   o0: () => (/* binding */ announceEntries),
/* harmony export */   xo: () => (/* binding */ setParentConfig)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _guard_files_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(9084);
/* harmony import */ var _guard_ledger_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(3946);
/* harmony import */ var _guard_refs_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(9689);
// The action's own changes to a parent's shared metadata: a sandbox registered or dropped (by a run, a
// post step, the reaper), a branch created for a sandbox, `origin/<branch>` fetched or pushed, a commit on
// a sandbox's branch, a pull request's head fetched, a branch's upstream set. Commands of other sandboxes
// of the same parent may be running meanwhile, under git guards that would take any change they did not
// expect for their command's doing and undo it. So each such change is made under the repository lock
// and announced here, into the guards' ledger, before the lock is released: the guards' next check finds
// it expected. Only the action announces, and only what it changed itself, by name; nothing a container
// wrote is ever taken as legitimate from what is found on disk.
//
// Every function here expects its caller to hold the repository lock (lock.ts `withRepositoryLock`), and
// costs one `stat` when no guard of the parent is open.





/** Whether a git guard of the parent is open (its ledger exists): stable while the repository lock is held. */
async function guardsOpen(parent) {
    return _guard_ledger_js__WEBPACK_IMPORTED_MODULE_3__/* .LedgerStore */ .n$.of(parent.path).exists();
}
/** Runs `fn` on the parent's ledger, when one exists (a guard is open), and saves it. */
async function onLedger(parent, fn) {
    const store = _guard_ledger_js__WEBPACK_IMPORTED_MODULE_3__/* .LedgerStore */ .n$.of(parent.path);
    if (!(await store.exists()))
        return;
    await store.withLock(async () => {
        const ledger = await store.load();
        if (!ledger)
            return;
        await fn(ledger, store);
        store.save(ledger);
    });
}
async function announceRefs(git, parent, refs) {
    const changed = refs.map((r) => (typeof r === 'string' ? { name: r } : r));
    if (!changed.length)
        return;
    await onLedger(parent, async (ledger) => {
        const unknown = changed.some((r) => r.value === undefined);
        const now = unknown ? await (0,_guard_refs_js__WEBPACK_IMPORTED_MODULE_4__/* .readRefs */ .n6)(git, parent.path) : [];
        for (const ref of changed) {
            const value = ref.value ?? now.find((r) => r.name === ref.name)?.value;
            const others = ledger.refs.filter((r) => r.name !== ref.name);
            ledger.refs = value === undefined ? others : [...others, { name: ref.name, value }];
        }
    });
}
/** Worktree admin folders the action created or dropped: the guards watch them as they are now. */
async function announceEntries(gitDir, adminDirs) {
    if (!adminDirs.length)
        return;
    await onLedger({ path: node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(gitDir), gitDir }, async (ledger, store) => {
        for (const adminDir of adminDirs)
            await watchEntry(ledger, adminDir, store.blobs);
    });
}
/** Starts (or goes on) watching an admin folder's files, taking their present state as the trusted one. */
async function watchEntry(ledger, adminDir, blobs) {
    const watched = new Set(ledger.roots.map((r) => r.path));
    const present = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat(adminDir).then((st) => st.isDirectory(), () => false);
    for (const file of _guard_ledger_js__WEBPACK_IMPORTED_MODULE_3__/* .ADMIN_FILES */ .Eb.map((f) => node_path__WEBPACK_IMPORTED_MODULE_1__.join(adminDir, f))) {
        if (!present && !watched.has(file))
            continue;
        if (!watched.has(file))
            ledger.roots.push({ path: file, recursive: false });
        const [record] = await (0,_guard_files_js__WEBPACK_IMPORTED_MODULE_2__/* .readState */ .un)(file, false, blobs);
        ledger.files = [...ledger.files.filter((f) => f.path !== file), record];
    }
}
/**
 * Sets config entries in the parent's .git/config. While a guard is open, the same edits are made to the
 * ledger's trusted config (with its credentials) and to the one the containers see, so that both keep
 * them and nothing a container wrote there is taken along.
 */
async function setParentConfig(git, parent, entries) {
    const configPath = node_path__WEBPACK_IMPORTED_MODULE_1__.join(parent.gitDir, 'config');
    const edit = async (file) => {
        for (const [key, value] of entries)
            await git.run('/', ['config', '--file', file, '--', key, value]);
    };
    let done = false;
    await onLedger(parent, async (ledger, store) => {
        const scratch = node_path__WEBPACK_IMPORTED_MODULE_1__.join(store.dir, 'config.edit');
        for (const list of [ledger.files, ledger.exposed]) {
            const record = list.find((r) => r.path === configPath);
            if (record?.kind !== 'file' || !record.sha256)
                continue;
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.copyFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(store.blobs, record.sha256), scratch);
            await edit(scratch);
            const content = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(scratch);
            record.sha256 = (0,_guard_files_js__WEBPACK_IMPORTED_MODULE_2__/* .sha256 */ .sc)(content);
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(store.blobs, record.sha256), content, { mode: 0o600 });
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(scratch, { force: true });
        }
        await edit(configPath);
        done = true;
    });
    if (!done)
        await edit(configPath);
}


/***/ }),

/***/ 8499:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ce: () => (/* binding */ classifyName),
/* harmony export */   EH: () => (/* binding */ volumeName),
/* harmony export */   ey: () => (/* binding */ persistentSandboxName),
/* harmony export */   f7: () => (/* binding */ VOLUME_MOUNT),
/* harmony export */   gG: () => (/* binding */ diskWorktreePath),
/* harmony export */   j1: () => (/* binding */ projectName),
/* harmony export */   j6: () => (/* binding */ transientSandboxName),
/* harmony export */   n$: () => (/* binding */ volumeWorktreePath)
/* harmony export */ });
/* unused harmony exports TRANSIENT_PREFIX, shortHash */
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Names of sandboxes, projects and volumes. Pure functions: the same branch always maps to the same
// sandbox, and two different branches never do.


const TRANSIENT_PREFIX = 'exploration-';
const SLUG_MAX = 80;
function shortHash(text, length = 8) {
    return (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.createHash)('sha256').update(text).digest('hex').slice(0, length);
}
function transientSandboxName(random = () => (0,node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomBytes)(4)) {
    return TRANSIENT_PREFIX + random().toString('hex').slice(0, 8).padEnd(8, '0');
}
/**
 * The folder-safe slug of a branch: `/` and anything outside [A-Za-z0-9._-] become `-`. When that loses
 * information (or the name could pass for a transient sandbox, or is too long) a hash of the full branch
 * name is appended after `..`, which git forbids in branch names: so a lossy slug can never equal the
 * slug of another branch, lossy or not.
 */
function persistentSandboxName(branch) {
    let slug = branch.replace(/[^A-Za-z0-9._-]/g, '-');
    let lossy = slug !== branch;
    if (slug.toLowerCase().startsWith(TRANSIENT_PREFIX)) {
        slug = `b-${slug}`;
        lossy = true;
    }
    if (slug.length > SLUG_MAX) {
        slug = slug.slice(0, SLUG_MAX);
        lossy = true;
    }
    slug = slug.replace(/^[.-]+/, '');
    return lossy ? `${slug}..${shortHash(branch)}` : slug;
}
function classifyName(sandbox) {
    return sandbox.startsWith(TRANSIENT_PREFIX) ? 'transient' : 'persistent';
}
/** A project is the parent repository: its folder name, plus a hash of its path so two clones never share. */
function projectName(parentPath) {
    const base = node_path__WEBPACK_IMPORTED_MODULE_1__.basename(parentPath)
        .replace(/[^A-Za-z0-9._-]/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 40) || 'repo';
    return `${base}-${shortHash(parentPath, 6)}`;
}
function volumeName(prefix, project, sandbox) {
    return `${prefix}-${project}-${sandbox}`;
}
/** Where a volume sandbox's worktree is, inside every container that mounts it. */
const VOLUME_MOUNT = '/sandbox';
function volumeWorktreePath(sandbox) {
    return `${VOLUME_MOUNT}/${sandbox}`;
}
function diskWorktreePath(root, project, sandbox) {
    return node_path__WEBPACK_IMPORTED_MODULE_1__.join(root, project, sandbox);
}


/***/ }),

/***/ 6661:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   t: () => (/* binding */ PATCH_SCRIPT),
/* harmony export */   w: () => (/* binding */ cleanupRun)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _docker_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(3871);
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(1243);
/* harmony import */ var _guard_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(8374);
/* harmony import */ var _lock_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(9188);
/* harmony import */ var _report_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(665);
/* harmony import */ var _sandbox_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(6004);
/* harmony import */ var _worktree_metadata_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(9662);
// The post step: runs after success, failure and cancel. Removes the container if it is still there,
// then applies the cleanup policy. It never fails the job: problems become warnings.









async function cleanupRun(state, ui, tempDir) {
    const engine = new _docker_js__WEBPACK_IMPORTED_MODULE_2__/* .ContainerEngine */ .yz(state.engine);
    if (state.container && (await engine.removeContainer(state.container)))
        ui.info(`Removed container ${state.container}.`);
    const { location } = state;
    // The main step stopped while the command ran: restore what the command may have changed outside its
    // sandbox before any other git command (and the runner's next steps) reads it.
    if (state.guardDir)
        await (0,_guard_js__WEBPACK_IMPORTED_MODULE_4__/* .recoverGuard */ .A9)(await _git_js__WEBPACK_IMPORTED_MODULE_3__/* .Git */ .TU.create(), engine, state.guardDir, ui);
    if (!state.ready)
        return recoverHalfCreated(engine, location, ui);
    if (state.cleanup === 'never')
        return keep(ui, location, 'cleanup: never');
    const git = await _git_js__WEBPACK_IMPORTED_MODULE_3__/* .Git */ .TU.create();
    const report = state.report ?? (await (0,_report_js__WEBPACK_IMPORTED_MODULE_6__/* .inspectWorktree */ .e5)(git, engine, location, state.image, state.startSha ?? 'HEAD'));
    if (state.cleanup === 'auto') {
        if (location.kind === 'persistent')
            return keep(ui, location, 'persistent sandboxes are kept for reuse (cleanup: auto)');
        if ((0,_report_js__WEBPACK_IMPORTED_MODULE_6__/* .holdsWork */ .Ww)(report))
            return keep(ui, location, describeWork(report));
        await (0,_sandbox_js__WEBPACK_IMPORTED_MODULE_7__/* .removeSandbox */ .Ur)(engine, location);
        ui.info(`Removed transient sandbox ${location.name}: it held no work.`);
        return { removed: true };
    }
    let patch;
    if ((0,_report_js__WEBPACK_IMPORTED_MODULE_6__/* .holdsWork */ .Ww)(report))
        patch = await savePatch(git, engine, location, state, report, tempDir, ui);
    await (0,_sandbox_js__WEBPACK_IMPORTED_MODULE_7__/* .removeSandbox */ .Ur)(engine, location);
    ui.info(`Removed sandbox ${location.name} (cleanup: always).`);
    return { removed: true, patch };
}
function keep(ui, location, why) {
    const where = location.volume ? `volume ${location.volume}` : location.hostPath;
    ui.info(`Kept sandbox ${location.name} (${where}): ${why}.`);
    return { removed: false, kept: why };
}
function describeWork(report) {
    const parts = [];
    if (report.uncommitted.length)
        parts.push(`${report.uncommitted.length} uncommitted file(s)`);
    if (report.unpushedCommits)
        parts.push(`${report.unpushedCommits} commit(s) on no remote`);
    return `it holds work: ${parts.join(', ')}`;
}
/** The main step stopped while creating the sandbox: undo what it half-created, keep anything whole. */
async function recoverHalfCreated(engine, location, ui) {
    return (0,_lock_js__WEBPACK_IMPORTED_MODULE_5__/* .withRepositoryLock */ .aZ)(location.parent.gitDir, async () => {
        const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_8__/* .findWorktreeEntry */ .lc)(location.parent.gitDir, location.worktreePath);
        if (!entry || entry.locked === _worktree_metadata_js__WEBPACK_IMPORTED_MODULE_8__/* .INITIALIZING */ .is) {
            if (location.hostPath)
                await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(location.hostPath, { recursive: true, force: true });
            if (location.volume)
                await engine.removeVolume(location.volume).catch(() => undefined);
            if (entry)
                await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_8__/* .dropEntry */ .sT)(location.parent.gitDir, entry);
            ui.info(`The main step stopped before sandbox ${location.name} was ready: removed what it had half-created.`);
            return { removed: true };
        }
        return keep(ui, location, 'it was ready before the main step stopped');
    });
}
// Uncommitted work as one patch (untracked files included, binary-safe), unsaved commits as a bundle.
const PATCH_SCRIPT = `set -eu
start="$1"
tmp_index="$(git rev-parse --git-path index).worktree-sandbox"
cp "$(git rev-parse --git-path index)" "$tmp_index"
GIT_INDEX_FILE="$tmp_index" git add -A
GIT_INDEX_FILE="$tmp_index" git diff --no-ext-diff --binary --cached HEAD
rm -f "$tmp_index"
`;
async function savePatch(git, engine, location, state, report, tempDir, ui) {
    const dir = node_path__WEBPACK_IMPORTED_MODULE_1__.join(tempDir, 'worktree-sandbox');
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(dir, { recursive: true });
    const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(dir, `${location.project}-${location.name}.patch`);
    const result = await (0,_sandbox_js__WEBPACK_IMPORTED_MODULE_7__/* .runInWorktree */ .kv)(git, engine, location, state.image, PATCH_SCRIPT, [
        state.startSha ?? 'HEAD',
    ]);
    if (result.exitCode !== 0)
        throw new Error(`Could not save the uncommitted work of ${location.name}; the sandbox is kept: ${result.stderr.trim()}`);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(file, result.stdout);
    ui.info(`Saved the uncommitted work of ${location.name} to ${file}.`);
    if (report.unpushedCommits > 0 && !location.branch) {
        const bundle = file.replace(/\.patch$/, '.bundle');
        const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_8__/* .findWorktreeEntry */ .lc)(location.parent.gitDir, location.worktreePath);
        if (entry) {
            await git.run(location.parent.path, [
                '--git-dir',
                entry.adminDir,
                'bundle',
                'create',
                bundle,
                'HEAD',
                '--not',
                '--remotes',
                '--branches',
            ]);
        }
        ui.info(`Saved ${report.unpushedCommits} unpushed commit(s) of ${location.name} to ${bundle}.`);
    }
    return file;
}


/***/ }),

/***/ 1783:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Bh: () => (/* binding */ pickEnv),
/* harmony export */   Nm: () => (/* binding */ ProcError),
/* harmony export */   R3: () => (/* binding */ runProcess)
/* harmony export */ });
/* harmony import */ var _actions_exec__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(7187);
/* harmony import */ var _actions_io__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(8701);
// The one place where child processes start. Argument arrays only: nothing here goes through a shell.


class ProcError extends Error {
    result;
    constructor(message, result) {
        super(message);
        this.result = result;
        this.name = 'ProcError';
    }
}
const toolPaths = new Map();
/**
 * The tool's absolute path, looked up once per PATH value. Given a bare name, @actions/exec searches every
 * PATH folder (one stat after another) on every call: a few milliseconds each time, and the action makes a
 * dozen calls before the user's command starts. A failed lookup is not remembered.
 */
function toolPath(tool) {
    const key = `${process.env.PATH ?? ''}\0${tool}`;
    let found = toolPaths.get(key);
    if (!found) {
        found = _actions_io__WEBPACK_IMPORTED_MODULE_1__/* .which */ .K7(tool, true);
        toolPaths.set(key, found);
        found.catch(() => toolPaths.delete(key));
    }
    return found;
}
async function runProcess(tool, args, options) {
    const listeners = {};
    if (options.onLine) {
        const onLine = options.onLine;
        listeners.stdline = (line) => onLine(line, 'stdout');
        listeners.errline = (line) => onLine(line, 'stderr');
    }
    try {
        const out = await _actions_exec__WEBPACK_IMPORTED_MODULE_0__/* .getExecOutput */ .H(await toolPath(tool), [...args], {
            cwd: options.cwd,
            env: options.env,
            silent: true,
            ignoreReturnCode: true,
            input: options.input,
            listeners,
        });
        return { exitCode: out.exitCode, stdout: out.stdout, stderr: out.stderr };
    }
    catch (error) {
        // @actions/exec throws when the executable cannot be found or started.
        throw new ProcError(`${tool} could not be started: ${error.message}`, {
            exitCode: -1,
            stdout: '',
            stderr: String(error),
        });
    }
}
/** Environment variables a CLI tool legitimately needs from the parent process; everything else is dropped. */
function pickEnv(names, source = process.env) {
    const env = {};
    for (const name of names) {
        const value = source[name];
        if (value !== undefined)
            env[name] = value;
    }
    return env;
}


/***/ }),

/***/ 665:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ww: () => (/* binding */ holdsWork),
/* harmony export */   br: () => (/* binding */ BOT_IDENTITY),
/* harmony export */   e5: () => (/* binding */ inspectWorktree)
/* harmony export */ });
/* unused harmony exports INSPECT_SCRIPT, parseInspectOutput */
/* harmony import */ var _sandbox_js__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(6004);

const BOT_IDENTITY = {
    name: 'github-actions[bot]',
    email: '41898282+github-actions[bot]@users.noreply.github.com',
};
const SEP = '\u0000@@ws:';
// Positional arguments only: $1 start commit, $2 commit (1/0), $3 message. Nothing is spliced in.
const INSPECT_SCRIPT = `set -u
start="$1"; commit="$2"; message="$3"
mark() { printf '\\000@@ws:%s\\000' "$1"; }
committed=0
if [ "$commit" = 1 ] && [ -n "$(git status --porcelain --untracked-files=all --ignore-submodules=dirty)" ]; then
  git add -A >&2 && git commit --quiet --no-verify -m "$message" >&2 || { echo "worktree-sandbox: commit failed" >&2; exit 3; }
  committed=1
fi
mark committed; echo "$committed"
mark head; git rev-parse --verify HEAD
mark branch; git symbolic-ref --quiet --short HEAD || true
mark commits; git rev-list --count "$start..HEAD"
mark status; git status --porcelain=v1 -z --untracked-files=all --ignore-submodules=dirty
mark names; git diff --no-ext-diff --no-textconv --ignore-submodules=dirty --no-renames --name-only -z "$start" --
mark stat; git diff --no-ext-diff --no-textconv --ignore-submodules=dirty --stat=120 "$start" --
mark unpushed; git rev-list --count HEAD --not "$start" --remotes
mark end
`;
function parseInspectOutput(stdout) {
    const sections = new Map();
    const parts = stdout.split(SEP);
    for (const part of parts.slice(1)) {
        const nul = part.indexOf('\u0000');
        sections.set(part.slice(0, nul), part.slice(nul + 1));
    }
    if (!sections.has('end'))
        throw new Error('The worktree report is incomplete.');
    const get = (name) => sections.get(name) ?? '';
    const zList = (text) => text.split('\u0000').filter(Boolean);
    // porcelain v1 -z: "XY path" entries; a rename/copy is followed by its source as an extra entry.
    const uncommitted = [];
    const entries = zList(get('status'));
    for (let i = 0; i < entries.length; i++) {
        const entry = entries[i];
        uncommitted.push(entry.slice(3));
        if (entry[0] === 'R' || entry[0] === 'C')
            i++;
    }
    const untracked = entries.filter((e) => e.startsWith('??')).map((e) => e.slice(3));
    const changed = new Set([...zList(get('names')), ...untracked]);
    const stat = get('stat').trimEnd();
    const untrackedStat = untracked.map((f) => ` ${f} (new, untracked)`).join('\n');
    return {
        committed: get('committed').trim() === '1',
        headSha: get('head').trim(),
        currentBranch: get('branch').trim(),
        commits: Number(get('commits').trim()) || 0,
        changedFiles: [...changed].sort(),
        uncommitted,
        diffStat: [stat, untrackedStat].filter(Boolean).join('\n'),
        unpushedCommits: Number(get('unpushed').trim()) || 0,
    };
}
async function inspectWorktree(git, engine, location, image, startSha, commit) {
    const env = {
        GIT_AUTHOR_NAME: BOT_IDENTITY.name,
        GIT_AUTHOR_EMAIL: BOT_IDENTITY.email,
        GIT_COMMITTER_NAME: BOT_IDENTITY.name,
        GIT_COMMITTER_EMAIL: BOT_IDENTITY.email,
    };
    const args = [startSha, commit ? '1' : '0', commit?.message ?? ''];
    const result = await (0,_sandbox_js__WEBPACK_IMPORTED_MODULE_0__/* .runInWorktree */ .kv)(git, engine, location, image, INSPECT_SCRIPT, args, env);
    if (result.exitCode !== 0) {
        throw new Error(`Could not read the sandbox ${location.name}: ${result.stderr.trim() || `exit ${result.exitCode}`}`);
    }
    return parseInspectOutput(result.stdout);
}
function holdsWork(report) {
    return report.uncommitted.length > 0 || report.unpushedCommits > 0;
}


/***/ }),

/***/ 3627:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   a: () => (/* binding */ findParentRepository)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// The parent repository: the main work tree whose object store and metadata every sandbox shares.


async function findParentRepository(git, given) {
    const start = await realDirectory(given);
    // One git call for all three answers (start-up latency counts): outside a work tree it prints `false`
    // or fails, and --show-toplevel fails there in any case.
    const found = await git.exec(start, [
        'rev-parse',
        '--is-inside-work-tree',
        '--path-format=absolute',
        '--git-common-dir',
        '--show-toplevel',
    ]);
    const [inside, commonDir, toplevel] = found.stdout.trim().split('\n');
    if (found.exitCode !== 0 || inside !== 'true' || !commonDir || !toplevel) {
        throw new Error(`repository-path ${given} is not a git work tree (git says: ${found.stderr.trim() || found.stdout.trim()}).`);
    }
    const gitDir = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(commonDir);
    if (node_path__WEBPACK_IMPORTED_MODULE_1__.basename(gitDir) !== '.git') {
        throw new Error(`repository-path ${given} uses a git directory at ${gitDir}: only a normal clone (a work tree with its .git folder) can be a sandbox parent.`);
    }
    const parentPath = node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(gitDir);
    if (!(await git.resolveCommit(parentPath, 'HEAD'))) {
        throw new Error(`repository-path ${given} has no commits yet: a sandbox needs at least one commit to start from.`);
    }
    const top = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(toplevel);
    return { path: parentPath, gitDir, resolvedFrom: top !== parentPath ? top : undefined };
}
async function realDirectory(given) {
    try {
        const real = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.realpath(given);
        if (!(await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.stat(real)).isDirectory())
            throw new Error('not a directory');
        return real;
    }
    catch {
        throw new Error(`repository-path ${given} does not exist or is not a directory.`);
    }
}


/***/ }),

/***/ 7560:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  F: () => (/* binding */ runSandbox)
});

// UNUSED EXPORTS: realRoot

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __nccwpck_require__(1455);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(6760);
// EXTERNAL MODULE: ./src/branch.ts
var branch = __nccwpck_require__(7651);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __nccwpck_require__(7598);
// EXTERNAL MODULE: ./src/docker.ts
var docker = __nccwpck_require__(3871);
// EXTERNAL MODULE: ./src/report.ts
var src_report = __nccwpck_require__(665);
// EXTERNAL MODULE: ./src/sandbox.ts
var src_sandbox = __nccwpck_require__(6004);
;// CONCATENATED MODULE: ./src/command-run.ts
// Runs the user's command in a container mounted on the sandbox: output streamed, the runner's
// environment kept out, stopped when the timeout passes.




const TIMEOUT_EXIT_CODE = 124;
const TAIL_LINES = 40;
function containerName(sandbox) {
    return `worktree-sandbox-${sandbox.slice(0, 60).replace(/[^A-Za-z0-9_.-]/g, '-')}-${(0,external_node_crypto_.randomBytes)(3).toString('hex')}`;
}
/** The container's environment: the action's SANDBOX_* variables, a bot identity for commits, the `env` input. */
function containerEnv(sandbox, spec) {
    const env = {
        GIT_AUTHOR_NAME: src_report/* BOT_IDENTITY */.br.name,
        GIT_AUTHOR_EMAIL: src_report/* BOT_IDENTITY */.br.email,
        GIT_COMMITTER_NAME: src_report/* BOT_IDENTITY */.br.name,
        GIT_COMMITTER_EMAIL: src_report/* BOT_IDENTITY */.br.email,
    };
    for (const { name, value } of spec.env)
        env[name] = value;
    Object.assign(env, {
        SANDBOX_NAME: sandbox.name,
        SANDBOX_KIND: sandbox.kind,
        SANDBOX_BRANCH: sandbox.branch,
        SANDBOX_WORKTREE: sandbox.worktreePath,
        SANDBOX_PARENT: sandbox.parent.path,
        ...spec.extraEnv,
    });
    return env;
}
/** Labels of the command container: how a later run finds the container of a run that was killed. */
function commandLabels(sandbox) {
    return {
        [`${docker/* LABEL_PREFIX */.Ag}.role`]: 'command',
        [`${docker/* LABEL_PREFIX */.Ag}.project`]: sandbox.project,
        [`${docker/* LABEL_PREFIX */.Ag}.sandbox`]: sandbox.name,
    };
}
function commandRunArgs(engine, sandbox, spec, name, env) {
    const id = (0,src_sandbox/* currentIdentity */._c)();
    const { limits } = spec;
    const labels = { [docker/* MANAGED_LABEL */.bS]: 'true', ...commandLabels(sandbox) };
    const args = ['run', '--name', name, ...engine.initArgs, '--user', `${id.uid}:${id.gid}`];
    for (const [key, value] of Object.entries(labels))
        args.push('--label', `${key}=${value}`);
    args.push('--cap-drop', 'ALL', '--security-opt', 'no-new-privileges');
    args.push('--pids-limit', String(limits.pidsLimit), '--network', limits.network);
    if (limits.memory)
        args.push('--memory', limits.memory, '--memory-swap', limits.memory);
    if (limits.cpus)
        args.push('--cpus', limits.cpus);
    if (limits.readOnlyRootfs)
        args.push('--read-only', '--tmpfs', '/tmp:rw,exec,nosuid,size=512m');
    args.push(...(0,src_sandbox/* sandboxMounts */.Ae)(sandbox));
    for (const file of spec.readOnlyFiles ?? [])
        args.push('--mount', (0,src_sandbox/* mountArg */.MC)({ type: 'bind', source: file, target: file, readonly: true }));
    args.push('--workdir', sandbox.worktreePath);
    // `-e NAME` without a value: docker takes the value from its own environment, so no value (a secret,
    // perhaps) ever appears on a command line.
    for (const key of Object.keys(env))
        args.push('-e', key);
    args.push('--entrypoint', 'sh', '--', spec.image, '-c', spec.command);
    return args;
}
async function runCommand(engine, sandbox, spec, hooks = {}) {
    const name = containerName(sandbox.name);
    const env = containerEnv(sandbox, spec);
    hooks.onStart?.(name);
    const tail = [];
    let timedOut = false;
    const timer = spec.timeoutMinutes > 0
        ? setTimeout(() => {
            timedOut = true;
            void engine.killContainer(name);
        }, spec.timeoutMinutes * 60_000)
        : undefined;
    const started = Date.now();
    try {
        const result = await engine.exec(commandRunArgs(engine, sandbox, spec, name, env), {
            env,
            onLine: (line) => {
                tail.push(line);
                if (tail.length > TAIL_LINES)
                    tail.shift();
                hooks.onLine?.(line);
            },
        });
        const durationMs = Date.now() - started;
        const state = await engine.containerState(name);
        if (!state) {
            if ((await engine.containerExists(name)) === undefined)
                throw new docker/* EngineError */.NJ(`The ${engine.name} engine became unreachable while the command ran (exit ${result.exitCode}): the sandbox is kept as it is; run again once the engine is back.`);
            // The container never started: the engine refused it (bad image, mount, option).
            throw new Error(`The container did not start: ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}`);
        }
        const exitCode = timedOut ? TIMEOUT_EXIT_CODE : state.exitCode;
        return { exitCode, timedOut, oomKilled: state.oomKilled, durationMs, tail };
    }
    finally {
        if (timer)
            clearTimeout(timer);
        await engine.removeContainer(name);
    }
}

// EXTERNAL MODULE: ./src/git.ts
var src_git = __nccwpck_require__(1243);
// EXTERNAL MODULE: ./src/guard.ts + 3 modules
var src_guard = __nccwpck_require__(8374);
// EXTERNAL MODULE: ./src/lock.ts
var lock = __nccwpck_require__(9188);
// EXTERNAL MODULE: ./src/metadata-changes.ts
var metadata_changes = __nccwpck_require__(8482);
// EXTERNAL MODULE: ./src/naming.ts
var naming = __nccwpck_require__(8499);
;// CONCATENATED MODULE: ./src/push.ts


function authConfig(url, token) {
    if (!token || !/^https?:\/\//i.test(url))
        return [];
    const basic = Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
    const { protocol, host } = new URL(url);
    return [[`http.${protocol}//${host}/.extraheader`, `AUTHORIZATION: basic ${basic}`]];
}
async function pushBranch(git, parent, originUrl, branch, sha, token, options = {}) {
    const trackingRef = options.trackingRef ?? `refs/remotes/origin/${branch}`;
    const label = options.label ?? `origin/${branch}`;
    const result = await git.exec(parent.path, ['push', '--porcelain', '--no-verify', '--', originUrl, `${sha}:refs/heads/${branch}`], {
        config: authConfig(originUrl, token),
    });
    if (result.exitCode === 0) {
        // The remote-tracking ref is shared by every worktree: moved, and announced to the git guards of
        // commands running meanwhile, under the repository lock.
        await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
            const updated = await git.exec(parent.path, [
                'update-ref',
                '-m',
                'worktree-sandbox: pushed',
                '--',
                trackingRef,
                sha,
            ]);
            if (updated.exitCode === 0)
                await (0,metadata_changes/* announceRefs */.g3)(git, parent, [{ name: trackingRef, value: sha }]);
        });
        return { pushed: true };
    }
    const text = `${result.stdout}\n${result.stderr}`;
    const rejected = /\[rejected\]|non-fast-forward|fetch first|\[remote rejected\]/.test(text);
    const reason = rejected
        ? `${label} has moved on since the sandbox started: the push was rejected (nothing is ever force-pushed). Rebase or rerun.`
        : `git push failed: ${result.stderr.trim().split('\n').slice(-2).join(' ')}`;
    return { pushed: false, rejected, reason };
}

// EXTERNAL MODULE: ./src/repository.ts
var repository = __nccwpck_require__(3627);
// EXTERNAL MODULE: ./src/settings.ts
var src_settings = __nccwpck_require__(8750);
// EXTERNAL MODULE: ./src/worktree-metadata.ts
var worktree_metadata = __nccwpck_require__(9662);
;// CONCATENATED MODULE: ./src/run-mode.ts
// Run mode, as a story: validate, find the parent, resolve the branch, prepare the sandbox, run the
// command, report, push. Each step is a function; each long step a log group.
















async function runSandbox(settings, deps) {
    const { ui } = deps;
    if (settings.token)
        ui.mask(settings.token);
    const engine = new docker/* ContainerEngine */.yz(settings.engine);
    // Start-up latency counts (a reused sandbox should start almost as fast as a bare `docker run`): the image
    // check, which is also the engine's reachability check, overlaps the git questions and is awaited before
    // anything is created; independent git questions are asked at the same time.
    const imageReady = engine.ensureImage(settings.image);
    imageReady.catch(() => undefined); // awaited below; an earlier failure must not leave it unhandled
    const git = await src_git/* Git */.TU.create();
    // Asked at the same time, but a bad branch name is the error reported whenever it is one (the parent's
    // failure, if any, is awaited second: Promise.all would report whichever fails first).
    const parentFound = (0,repository/* findParentRepository */.a)(git, settings.repositoryPath);
    parentFound.catch(() => undefined); // awaited below
    await (0,src_settings/* validateBranchNames */.N6)(settings, (name) => git.isValidBranchName(name));
    const parent = await parentFound;
    if (parent.resolvedFrom)
        ui.info(`${parent.resolvedFrom} is a linked worktree: working from its parent ${parent.path}.`);
    const plan = await (0,lock/* withRepositoryLock */.aZ)(parent.gitDir, async () => {
        // A transient sandbox's name is new; a branch's sandbox is this run's, recovered under its lock below.
        const sandbox = settings.branch ? (0,naming/* persistentSandboxName */.ey)(settings.branch) : 'transient';
        await (0,src_guard/* verifyParent */.yk)(git, engine, parent, sandbox, ui);
        return (0,branch/* resolveBranch */.pd)(git, parent, settings.branch, settings.base);
    });
    const worktreeRoot = settings.isolation === 'disk' ? await realRoot(settings.worktreeRoot) : settings.worktreeRoot;
    const location = (0,src_sandbox/* locateSandbox */.Iw)(plan, parent, settings.isolation, worktreeRoot, settings.volumePrefix);
    const originUrl = settings.push ? await git.remoteUrl(parent.path, 'origin') : undefined;
    if (settings.push && !originUrl && !deps.pushTo)
        throw new Error(`push: true needs a remote named origin in ${parent.path}.`);
    await imageReady;
    const release = await (0,lock/* lockSandbox */.rj)(parent.gitDir, location.name, settings.lockTimeoutMinutes * 60_000, (msg) => ui.info(msg));
    try {
        deps.save({ engine: settings.engine, image: settings.image, cleanup: settings.cleanup, location });
        const guardDir = (0,src_guard/* guardDirectory */.l_)(location);
        const interrupted = await (0,src_guard/* recoverGuard */.A9)(git, engine, guardDir, ui);
        if (interrupted)
            enforceBoundary(interrupted, settings.strict);
        const sandbox = await ui.group(`Sandbox ${location.name} (${location.kind}, ${location.isolation})`, async () => {
            // We hold the sandbox lock, so a command container still there belongs to a run that was killed.
            const [created, orphans] = await Promise.all([
                (0,src_sandbox/* prepareSandbox */.D_)(git, engine, location, plan, settings.image, ui),
                engine.removeContainersLabelled(commandLabels(location)),
            ]);
            if (orphans.length)
                ui.info(`Removed container(s) left by a run that was killed: ${orphans.join(', ')}.`);
            await (0,src_sandbox/* clearStaleWorktreeLocks */.YW)(created, (m) => ui.info(m));
            describeSandbox(ui, created, plan.source);
            return created;
        });
        deps.save({ ready: true, startSha: sandbox.startSha });
        const guard = await src_guard/* GitGuard */.eg.take(git, engine, sandbox, guardDir, ui);
        deps.save({ guardDir });
        const { value: command, guard: boundary } = await (0,src_guard/* runGuarded */.sg)(guard, git, engine, ui, () => ui.group(`Run: ${firstLine(settings.command)}`, () => ui.untrusted((write) => runCommand(engine, sandbox, { ...settings, readOnlyFiles: deps.command?.readOnlyFiles, extraEnv: deps.command?.extraEnv }, {
            onStart: (container) => {
                guard.noteContainer(container);
                deps.save({ container });
            },
            onLine: write,
        }))));
        deps.save({ container: undefined, guardDir: undefined });
        reportCommand(ui, command);
        enforceBoundary(boundary, settings.strict);
        const wantsCommit = settings.push && !!sandbox.branch;
        const report = await ui.group('Report', async () => {
            const r = wantsCommit
                ? await commitAndInspect(git, engine, sandbox, settings)
                : await (0,src_report/* inspectWorktree */.e5)(git, engine, sandbox, settings.image, sandbox.startSha);
            ui.info(r.diffStat || 'No changes.');
            return r;
        });
        deps.save({ report });
        let push;
        if (settings.push) {
            const to = deps.pushTo ?? {
                url: originUrl,
                branch: sandbox.branch,
                trackingRef: `refs/remotes/origin/${sandbox.branch}`,
                label: `origin/${sandbox.branch}`,
            };
            push = await ui.group('Push', () => pushSandbox(git, sandbox, report, to, settings.token, ui));
        }
        return { sandbox, command, report, push, boundary };
    }
    finally {
        await release();
    }
}
/**
 * The leftovers committed on the sandbox's branch, a ref every worktree shares: under the repository lock,
 * announced to the git guards of commands running in other sandboxes meanwhile.
 */
async function commitAndInspect(git, engine, sandbox, settings) {
    // Only on its own branch: a command that checked out another branch does not get it moved by the host.
    const onBranch = (await readWorktreeHead(sandbox)) === `ref: refs/heads/${sandbox.branch}`;
    return (0,lock/* withRepositoryLock */.aZ)(sandbox.parent.gitDir, async () => {
        const report = await (0,src_report/* inspectWorktree */.e5)(git, engine, sandbox, settings.image, sandbox.startSha, onBranch ? { message: settings.commitMessage } : undefined);
        if (report.committed && report.currentBranch === sandbox.branch)
            await (0,metadata_changes/* announceRefs */.g3)(git, sandbox.parent, [
                { name: `refs/heads/${sandbox.branch}`, value: report.headSha },
            ]);
        return report;
    });
}
/** The worktree's HEAD as its admin folder on the host holds it (`ref: refs/heads/x` or a commit). */
async function readWorktreeHead(sandbox) {
    const entry = await (0,worktree_metadata/* findWorktreeEntry */.lc)(sandbox.parent.gitDir, sandbox.worktreePath);
    if (!entry)
        return '';
    return (await promises_.readFile(external_node_path_.join(entry.adminDir, 'HEAD'), 'utf8').catch(() => '')).trim();
}
async function pushSandbox(git, sandbox, report, to, token, ui) {
    if (!sandbox.branch)
        return { pushed: false, reason: 'a transient sandbox has no branch to push' };
    if (report.currentBranch !== sandbox.branch) {
        return {
            pushed: false,
            reason: `the sandbox is no longer on ${sandbox.branch} (HEAD: ${report.currentBranch || 'detached'}); nothing pushed`,
        };
    }
    if ('withheld' in to) {
        if (report.commits === 0)
            return { pushed: false, reason: 'no new commits' };
        ui.info(`Nothing pushed: ${to.withheld}.`);
        return { pushed: false, reason: to.withheld };
    }
    // Counted against the destination, not against this run's start: a run killed before its push
    // completed left commits that the next run must still push.
    const unpushed = await unpushedCount(git, sandbox, report.headSha, to.trackingRef);
    if (unpushed === 0)
        return { pushed: false, reason: `no commits that ${to.label} does not have` };
    const result = await pushBranch(git, sandbox.parent, to.url, to.branch, report.headSha, token, {
        trackingRef: to.trackingRef,
        label: to.label,
    });
    if (result.pushed)
        ui.info(`Pushed ${unpushed} commit(s) to ${to.label}.`);
    else
        ui.warning(result.reason ?? 'push failed');
    return result;
}
async function unpushedCount(git, sandbox, headSha, tracking) {
    const not = (await git.refExists(sandbox.parent.path, tracking)) ? [tracking] : ['--remotes'];
    const out = await git.exec(sandbox.parent.path, ['rev-list', '--count', headSha, '--not', ...not, '--']);
    return out.exitCode === 0 ? Number(out.stdout.trim()) : 1;
}
function describeSandbox(ui, sandbox, source) {
    const where = sandbox.volume
        ? `volume ${sandbox.volume}, ${sandbox.worktreePath} in the container`
        : sandbox.hostPath;
    const what = sandbox.branch
        ? `branch ${sandbox.branch} (${sandbox.reused ? 'reused' : source})`
        : `detached at ${sandbox.startSha.slice(0, 12)}`;
    ui.info(`${sandbox.reused ? 'Reusing' : 'Created'} ${sandbox.name}: ${what}; ${where}.`);
}
/** `strict: true` turns any change outside the sandbox (already undone) into a failure of the step. */
function enforceBoundary(report, strict) {
    if (!strict || report.violations.length === 0)
        return;
    throw new Error(`strict: the command changed ${report.violations.length} thing(s) outside its sandbox (each undone): ${report.violations.join('; ')}.`);
}
function reportCommand(ui, command) {
    const seconds = (command.durationMs / 1000).toFixed(1);
    if (command.timedOut)
        ui.warning(`The command was stopped by timeout-minutes after ${seconds}s (exit code ${command.exitCode}).`);
    else if (command.oomKilled)
        ui.warning(`The command was killed by the memory limit (exit code ${command.exitCode}).`);
    else
        ui.info(`The command exited with code ${command.exitCode} after ${seconds}s.`);
}
/** The real path of a folder that may not exist yet (its nearest existing ancestor resolved), creating nothing. */
async function realRoot(root) {
    const rest = [];
    let current = external_node_path_.resolve(root);
    for (;;) {
        try {
            return external_node_path_.join(await promises_.realpath(current), ...rest.reverse());
        }
        catch {
            const up = external_node_path_.dirname(current);
            if (up === current)
                return external_node_path_.resolve(root);
            rest.push(external_node_path_.basename(current));
            current = up;
        }
    }
}
function firstLine(text) {
    const line = text.trim().split('\n')[0];
    return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}


/***/ }),

/***/ 6004:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   Ae: () => (/* binding */ sandboxMounts),
/* harmony export */   D_: () => (/* binding */ prepareSandbox),
/* harmony export */   Iw: () => (/* binding */ locateSandbox),
/* harmony export */   MC: () => (/* binding */ mountArg),
/* harmony export */   Ur: () => (/* binding */ removeSandbox),
/* harmony export */   YW: () => (/* binding */ clearStaleWorktreeLocks),
/* harmony export */   _c: () => (/* binding */ currentIdentity),
/* harmony export */   kv: () => (/* binding */ runInWorktree),
/* harmony export */   vB: () => (/* binding */ helperContainerArgs)
/* harmony export */ });
/* unused harmony exports volumeLabels, SandboxConflictError */
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _branch_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(7651);
/* harmony import */ var _git_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(1243);
/* harmony import */ var _docker_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(3871);
/* harmony import */ var _guard_js__WEBPACK_IMPORTED_MODULE_5__ = __nccwpck_require__(8374);
/* harmony import */ var _lock_js__WEBPACK_IMPORTED_MODULE_6__ = __nccwpck_require__(9188);
/* harmony import */ var _metadata_changes_js__WEBPACK_IMPORTED_MODULE_7__ = __nccwpck_require__(8482);
/* harmony import */ var _naming_js__WEBPACK_IMPORTED_MODULE_8__ = __nccwpck_require__(8499);
/* harmony import */ var _proc_js__WEBPACK_IMPORTED_MODULE_9__ = __nccwpck_require__(1783);
/* harmony import */ var _worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__ = __nccwpck_require__(9662);
// The sandbox lifecycle: find, create (or reuse as it is), inspect and remove one sandbox, on disk or in
// a container volume. Every change to the parent's metadata happens under the repository lock.











function currentIdentity() {
    return { uid: process.getuid?.() ?? 0, gid: process.getgid?.() ?? 0 };
}
function locateSandbox(plan, parent, isolation, worktreeRoot, volumePrefix) {
    const project = (0,_naming_js__WEBPACK_IMPORTED_MODULE_8__/* .projectName */ .j1)(parent.path);
    const base = { name: plan.sandbox, kind: plan.kind, project, isolation, branch: plan.branch, parent };
    if (isolation === 'disk') {
        const hostPath = (0,_naming_js__WEBPACK_IMPORTED_MODULE_8__/* .diskWorktreePath */ .gG)(worktreeRoot, project, plan.sandbox);
        return { ...base, worktreePath: hostPath, hostPath };
    }
    return {
        ...base,
        worktreePath: (0,_naming_js__WEBPACK_IMPORTED_MODULE_8__/* .volumeWorktreePath */ .n$)(plan.sandbox),
        volume: (0,_naming_js__WEBPACK_IMPORTED_MODULE_8__/* .volumeName */ .EH)(volumePrefix, project, plan.sandbox),
    };
}
function volumeLabels(location, now = new Date()) {
    return {
        [_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .MANAGED_LABEL */ .bS]: 'true',
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.project`]: location.project,
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.sandbox`]: location.name,
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.kind`]: location.kind,
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.branch`]: location.branch,
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.parent`]: location.parent.path,
        [`${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.created`]: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    };
}
/** A bind or volume mount in `--mount` syntax (CSV: a field with a comma or quote is quoted). */
function mountArg(fields) {
    return (Object.entries(fields)
        // `ro`, not `readonly`: Podman (4.3) refuses `readonly` on volume mounts; both engines take `ro`.
        .map(([k, v]) => (k === 'readonly' ? 'ro' : k) + (v === true ? '' : `=${v}`))
        .map((f) => (/[",]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f))
        .join(','));
}
/** The surgical mount (ADR 0035): parent read-only, its .git read-write, the worktree read-write. */
function sandboxMounts(location) {
    return sandboxMountList(location).flatMap((m) => ['--mount', m]);
}
function sandboxMountList(location) {
    const { parent } = location;
    const mounts = [
        mountArg({ type: 'bind', source: parent.path, target: parent.path, readonly: true }),
        mountArg({ type: 'bind', source: parent.gitDir, target: parent.gitDir }),
    ];
    if (location.volume)
        mounts.push(mountArg({ type: 'volume', source: location.volume, target: _naming_js__WEBPACK_IMPORTED_MODULE_8__/* .VOLUME_MOUNT */ .f7 }));
    else
        mounts.push(mountArg({ type: 'bind', source: location.hostPath, target: location.hostPath }));
    return mounts;
}
/**
 * The arguments of every helper container (the action's own scripts, never the user's command): removed
 * when done, no network, the runner's uid:gid unless said otherwise, no capabilities but those named,
 * labelled as ours; `entrypoint` runs `image` with `args`.
 */
function helperContainerArgs(options) {
    const id = currentIdentity();
    const run = [
        'run',
        '--rm',
        '--network',
        'none',
        '--user',
        options.user ?? `${id.uid}:${id.gid}`,
        '--cap-drop',
        'ALL',
    ];
    for (const cap of options.capAdd ?? [])
        run.push('--cap-add', cap);
    run.push('--security-opt', 'no-new-privileges');
    run.push('--label', `${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .MANAGED_LABEL */ .bS}=true`, '--label', `${_docker_js__WEBPACK_IMPORTED_MODULE_4__/* .LABEL_PREFIX */ .Ag}.role=helper`);
    for (const mount of options.mounts)
        run.push('--mount', mount);
    if (options.workdir)
        run.push('--workdir', options.workdir);
    for (const name of options.envNames ?? [])
        run.push('-e', name);
    return [...run, '--entrypoint', options.entrypoint, '--', options.image, ...options.args];
}
class SandboxConflictError extends Error {
}
/**
 * Creates the sandbox, or reuses it exactly as it is (uncommitted files and all). Recovers what a killed
 * run half-created; refuses, with the reason, anything it cannot recognise as its own.
 */
async function prepareSandbox(git, engine, location, plan, image, ui) {
    const { parent } = location;
    const log = (msg) => ui.info(msg);
    const reused = await (0,_lock_js__WEBPACK_IMPORTED_MODULE_6__/* .withRepositoryLock */ .aZ)(parent.gitDir, async () => {
        // What a command running in another sandbox changed is undone before anything is read from the parent.
        await (0,_guard_js__WEBPACK_IMPORTED_MODULE_5__/* .verifyParent */ .yk)(git, engine, parent, location.name, ui);
        const pinned = await pinStartPoint(git, location, plan);
        if (location.volume)
            return prepareVolume(git, engine, location, pinned, image, log);
        return prepareDisk(git, location, pinned, log);
    });
    const startSha = await readHead(git, location);
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, location.worktreePath);
    if (entry)
        await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .markUsed */ .Nm)(entry);
    return { ...location, reused, startSha };
}
/** A branch only on origin starts at the commit origin/<branch> names now (read under the lock). */
async function pinStartPoint(git, location, plan) {
    if (plan.source !== 'remote')
        return plan;
    const sha = await git.resolveCommit(location.parent.path, `refs/remotes/origin/${plan.branch}`);
    if (!sha)
        throw new Error(`origin/${plan.branch} disappeared while sandbox ${location.name} was prepared.`);
    return { ...plan, startPoint: sha };
}
async function checkoutForce(git, parent, plan) {
    if (plan.source !== 'local')
        return false;
    // The branch may be checked out in the parent's own work tree (a workflow that checked it out):
    // git refuses a second checkout unless forced. Other sandboxes holding it are refused, not forced.
    const head = await git.exec(parent.path, ['symbolic-ref', '-q', 'HEAD']);
    return head.stdout.trim() === `refs/heads/${plan.branch}`;
}
async function prepareDisk(git, location, plan, log) {
    const hostPath = location.hostPath;
    const { parent } = location;
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, hostPath);
    const dirExists = await exists(hostPath);
    if (entry && entry.locked !== _worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .INITIALIZING */ .is && dirExists && (await exists(node_path__WEBPACK_IMPORTED_MODULE_1__.join(hostPath, '.git')))) {
        return true;
    }
    if (entry && !dirExists) {
        log(`The worktree folder ${hostPath} is gone; dropping its stale registration.`);
        await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, entry);
    }
    else if (entry) {
        log(`Recovering ${hostPath}: a run was killed while creating it.`);
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(hostPath, { recursive: true, force: true });
        await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, entry);
    }
    else if (dirExists) {
        const names = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir(hostPath);
        if (names.some((n) => n !== '.git')) {
            throw new SandboxConflictError(`${hostPath} exists and holds files, but ${parent.path} has no worktree registered there: it is not touched. Move it away or remove it, then run again.`);
        }
        log(`Removing the empty leftover folder ${hostPath}.`);
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(hostPath, { recursive: true, force: true });
    }
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.mkdir(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(hostPath), { recursive: true });
    const args = (0,_branch_js__WEBPACK_IMPORTED_MODULE_2__/* .worktreeAddArgs */ .KX)(plan, hostPath, false);
    if (await checkoutForce(git, parent, plan))
        args.splice(2, 0, '--force');
    const result = await git.exec(parent.path, args);
    await announceCreation(git, location, plan, result.exitCode === 0);
    if (result.exitCode !== 0) {
        // The folder did not exist before this call (checked above): whatever git left of it is ours to remove.
        const leftover = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, hostPath);
        if (leftover)
            await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, leftover);
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(hostPath, { recursive: true, force: true });
        const detail = result.stderr || result.stdout;
        throw new Error(`${await writeFailureHint(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(hostPath), detail)}${explainAddFailure(plan, detail)}`);
    }
    return false;
}
/**
 * What `git worktree add` changed in the parent's shared metadata (the registration, a new branch, a
 * branch's upstream), announced to the git guards of commands running meanwhile. Called whether it
 * succeeded or not: git may have created the branch before failing.
 */
async function announceCreation(git, location, plan, succeeded) {
    const { parent } = location;
    if (succeeded && plan.source === 'remote') {
        // What `--track` would have written, as an edit the guards know of.
        await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_7__/* .setParentConfig */ .xo)(git, parent, [
            [`branch.${plan.branch}.remote`, 'origin'],
            [`branch.${plan.branch}.merge`, `refs/heads/${plan.branch}`],
        ]);
    }
    if (!(await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_7__/* .guardsOpen */ .B5)(parent)))
        return;
    if (plan.source === 'new' || plan.source === 'remote') {
        // The branch is ours only if it is where we created it: a branch of that name a command made meanwhile
        // (git then refuses) is never recorded as trusted.
        const name = `refs/heads/${plan.branch}`;
        if ((await git.resolveCommit(parent.path, name)) === plan.startPoint)
            await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_7__/* .announceRefs */ .g3)(git, parent, [{ name, value: plan.startPoint }]);
    }
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, location.worktreePath);
    if (entry)
        await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_7__/* .announceEntries */ .o0)(parent.gitDir, [entry.adminDir]);
}
/** git's refusal to check a branch out twice, said in the sandbox's terms. */
function explainAddFailure(plan, detail) {
    const elsewhere = /already (?:checked out|used by worktree) at '([^']+)'/.exec(detail);
    if (elsewhere) {
        return `Branch ${plan.branch} is already checked out in another worktree (${elsewhere[1]}): a branch lives in one sandbox at a time. Use that sandbox (same isolation), or remove it first.`;
    }
    return `Could not create the worktree: ${detail.trim()}`;
}
/** git only says it could not write a file: say where, and how much room is left once it cleaned up. */
async function writeFailureHint(dir, message) {
    if (!/unable to write|no space left|write error|short write|could not write/i.test(message))
        return '';
    const stats = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.statfs(dir).catch(() => undefined);
    const free = stats
        ? `, ${Math.floor((stats.bavail * stats.bsize) / 1024)} KiB free now that git removed what it wrote`
        : '';
    return `Writing the worktree under ${dir} failed (No space left on device?${free}): the sandbox was not created. `;
}
/**
 * Creates the worktree inside the volume from a short-lived helper container: as root only to hand the
 * volume to the runner's user, then git runs as that user (setpriv, or chroot --userspec).
 */
const VOLUME_CREATE_SCRIPT = `set -eu
uid="$1"; gid="$2"; wt="$3"; recover="$4"; shift 4
as_user() {
  if [ "$uid" = 0 ]; then "$@"
  elif command -v setpriv >/dev/null 2>&1; then setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"
  else chroot --userspec="$uid:$gid" / "$@"; fi
}
chown "$uid:$gid" /sandbox
if [ -e "$wt" ] || [ -L "$wt" ]; then
  if [ "$recover" = 1 ] || [ -z "$(ls -A "$wt" | grep -vx '.git' || true)" ]; then
    as_user rm -rf -- "$wt"
  else
    echo "worktree-sandbox: $wt holds files but the parent repository has no record of it; refusing to overwrite them" >&2
    exit 3
  fi
fi
as_user "$@"
`;
async function prepareVolume(git, engine, location, plan, image, log) {
    const volume = location.volume;
    const { parent } = location;
    const [entry, volumeExists] = await Promise.all([
        (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, location.worktreePath),
        engine.volumeExists(volume),
    ]);
    if (entry && entry.locked !== _worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .INITIALIZING */ .is && volumeExists)
        return true;
    let recover = false;
    if (entry && !volumeExists) {
        log(`Volume ${volume} is gone; dropping its stale registration.`);
        await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, entry);
    }
    else if (entry) {
        log(`Recovering volume ${volume}: a run was killed while creating it.`);
        await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, entry);
        recover = true;
    }
    if (!volumeExists)
        await engine.createVolume(volume, volumeLabels(location));
    const id = currentIdentity();
    const add = (0,_branch_js__WEBPACK_IMPORTED_MODULE_2__/* .worktreeAddArgs */ .KX)(plan, location.worktreePath, true);
    if (await checkoutForce(git, parent, plan))
        add.splice(2, 0, '--force');
    const configEnv = { ...(0,_git_js__WEBPACK_IMPORTED_MODULE_3__/* .gitConfigEnv */ .W0)(), HOME: '/tmp' };
    const result = await engine.exec(helperContainerArgs({
        // root only to hand the fresh volume to the runner's user; the script then drops to that user
        user: '0:0',
        capAdd: ['CHOWN', 'SETUID', 'SETGID', 'SYS_CHROOT', 'DAC_OVERRIDE', 'FOWNER'],
        mounts: sandboxMountList(location),
        workdir: parent.path,
        envNames: Object.keys(configEnv),
        image,
        entrypoint: 'sh',
        args: [
            '-c',
            VOLUME_CREATE_SCRIPT,
            'create-sandbox',
            String(id.uid),
            String(id.gid),
            location.worktreePath,
            recover ? '1' : '0',
            'git',
            '-C',
            parent.path,
            ...add,
        ],
    }), { env: configEnv });
    await announceCreation(git, location, plan, result.exitCode === 0);
    const created = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, location.worktreePath);
    if (result.exitCode !== 0 || !created) {
        if (created)
            await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, created);
        if (!volumeExists)
            await engine.removeVolume(volume).catch(() => undefined);
        throw new Error(`${explainAddFailure(plan, result.stderr || result.stdout || `exit ${result.exitCode}`)} (volume ${volume})`);
    }
    // Locked while the volume exists: the host cannot resolve /sandbox/..., so it sees it as prunable.
    await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .lockEntry */ .KF)(created, `worktree-sandbox volume ${volume}`);
    return false;
}
async function readHead(git, location) {
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(location.parent.gitDir, location.worktreePath);
    if (!entry)
        throw new Error(`Sandbox ${location.name} has no worktree registration in ${location.parent.path}.`);
    // The worktree's HEAD lives in its admin folder on the host, whatever the isolation.
    return (await git.run(location.parent.path, ['--git-dir', entry.adminDir, 'rev-parse', '--verify', 'HEAD'])).trim();
}
/** Runs one of our scripts in the worktree: on the host for disk sandboxes, in a helper container for volumes. */
async function runInWorktree(git, engine, location, image, script, args, extraEnv = {}) {
    // The worktree's `.git` file is the command's to rewrite (it could point at a repository it made, with
    // its own config): our scripts name the worktree's git directory explicitly instead of reading it.
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(location.parent.gitDir, location.worktreePath);
    if (!entry)
        throw new Error(`Sandbox ${location.name} has no worktree registration in ${location.parent.path}.`);
    extraEnv = { ...extraEnv, GIT_DIR: entry.adminDir, GIT_WORK_TREE: location.worktreePath };
    if (location.hostPath) {
        return (0,_proc_js__WEBPACK_IMPORTED_MODULE_9__/* .runProcess */ .R3)('sh', ['-c', script, 'worktree-sandbox', ...args], {
            cwd: location.hostPath,
            env: git.scriptEnv(extraEnv),
        });
    }
    const env = {
        ...(0,_git_js__WEBPACK_IMPORTED_MODULE_3__/* .gitConfigEnv */ .W0)(),
        GIT_TERMINAL_PROMPT: '0',
        GIT_OPTIONAL_LOCKS: '0',
        HOME: '/tmp',
        LC_ALL: 'C',
        ...extraEnv,
    };
    return engine.exec(helperContainerArgs({
        mounts: sandboxMountList(location),
        workdir: location.worktreePath,
        envNames: Object.keys(env),
        image,
        entrypoint: 'sh',
        args: ['-c', script, 'worktree-sandbox', ...args],
    }), { env });
}
/**
 * git's lock files in the sandbox's own admin folder (`index.lock`, `HEAD.lock`) left by a command that was
 * killed: this run holds the sandbox's lock and any earlier container is gone, so no git process can own
 * them. Without this the next command's `git commit` fails. Locks of the shared parent are never touched.
 */
async function clearStaleWorktreeLocks(location, log) {
    const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(location.parent.gitDir, location.worktreePath);
    if (!entry)
        return;
    for (const name of ['index.lock', 'HEAD.lock']) {
        const file = node_path__WEBPACK_IMPORTED_MODULE_1__.join(entry.adminDir, name);
        if (!(await exists(file)))
            continue;
        await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(file, { force: true });
        log(`Removed ${name} left in sandbox ${location.name} by an interrupted git command.`);
    }
}
/** Removes the sandbox (volume or folder) and exactly its metadata entry in the parent; nothing else. */
async function removeSandbox(engine, location) {
    const { parent } = location;
    await (0,_lock_js__WEBPACK_IMPORTED_MODULE_6__/* .withRepositoryLock */ .aZ)(parent.gitDir, async () => {
        if (location.volume) {
            await engine.removeVolume(location.volume);
        }
        else {
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(location.hostPath, { recursive: true, force: true });
            await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rmdir(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(location.hostPath)).catch(() => undefined);
        }
        const entry = await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .findWorktreeEntry */ .lc)(parent.gitDir, location.worktreePath);
        if (entry)
            await (0,_worktree_metadata_js__WEBPACK_IMPORTED_MODULE_10__/* .dropEntry */ .sT)(parent.gitDir, entry);
    });
}
async function exists(p) {
    return node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.lstat(p).then(() => true, () => false);
}


/***/ }),

/***/ 8750:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   N6: () => (/* binding */ validateBranchNames),
/* harmony export */   P$: () => (/* binding */ parseSettings),
/* harmony export */   yD: () => (/* binding */ defaultStateDir)
/* harmony export */ });
/* unused harmony exports InputError, ASSOCIATIONS, defaultWorktreeRoot, RESERVED_ENV */
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(8161);
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_os__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
// Every input is read and validated here, once, into typed settings. Nothing past this module reads an
// input. An error names the input and what it accepts, and is raised before anything is created.


class InputError extends Error {
    constructor(input, value, accepted) {
        super(`Invalid input '${input}': ${JSON.stringify(value)}. Accepted: ${accepted}.`);
        this.name = 'InputError';
    }
}
const ASSOCIATIONS = [
    'OWNER',
    'MEMBER',
    'COLLABORATOR',
    'CONTRIBUTOR',
    'FIRST_TIMER',
    'FIRST_TIME_CONTRIBUTOR',
    'MANNEQUIN',
    'NONE',
];
function parseSettings(read, env = process.env) {
    const mode = oneOf(read, 'mode', ['run', 'reap'], 'run');
    const common = {
        engine: oneOf(read, 'engine', ['docker', 'podman'], 'docker'),
        worktreeRoot: pathInput(read, 'worktree-root') ?? defaultWorktreeRoot(env),
        volumePrefix: volumePrefix(read),
        token: read('token').trim(),
    };
    return mode === 'run' ? { ...common, ...parseRun(read, env) } : { ...common, ...parseReap(read) };
}
function parseRun(read, env) {
    const command = read('command');
    if (!command.trim())
        throw new InputError('command', command, 'a shell command (required in run mode)');
    return {
        mode: 'run',
        command,
        image: image(read),
        isolation: oneOf(read, 'isolation', ['container', 'disk'], 'container'),
        branch: branchInput(read, 'branch'),
        base: revisionInput(read, 'base'),
        repositoryPath: pathInput(read, 'repository-path') ?? node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(env.GITHUB_WORKSPACE || process.cwd()),
        cleanup: oneOf(read, 'cleanup', ['auto', 'always', 'never'], 'auto'),
        env: envEntries(read, env),
        timeoutMinutes: number(read, 'timeout-minutes', { min: 0, integer: false, fallback: 0 }),
        lockTimeoutMinutes: number(read, 'lock-timeout-minutes', { min: 0, integer: false, fallback: 10 }),
        allowFailure: boolean(read, 'allow-failure', false),
        push: boolean(read, 'push', false),
        commitMessage: read('commit-message').trim() || 'chore: changes made in worktree-sandbox',
        limits: {
            memory: optionalPattern(read, 'memory', /^\d+(\.\d+)?[bkmg]?$/i, 'a size such as 512m or 2g'),
            cpus: optionalPattern(read, 'cpus', /^(\d+(\.\d+)?|\.\d+)$/, 'a positive number such as 1.5'),
            pidsLimit: number(read, 'pids-limit', { min: 1, integer: true, fallback: 4096 }),
            network: oneOf(read, 'network', ['bridge', 'none'], 'bridge'),
            readOnlyRootfs: boolean(read, 'read-only-rootfs', false),
        },
        strict: boolean(read, 'strict', false),
        trigger: {
            command: triggerCommand(read),
            allowedAssociations: list(read, 'allowed-associations', ['OWNER', 'MEMBER', 'COLLABORATOR']).map((a) => {
                const upper = a.toUpperCase();
                if (!ASSOCIATIONS.includes(upper))
                    throw new InputError('allowed-associations', a, ASSOCIATIONS.join(', '));
                return upper;
            }),
            allowedBots: list(read, 'allowed-bots', []),
            prNumber: number(read, 'pr-number', { min: 1, integer: true, fallback: 0 }),
        },
    };
}
function parseReap(read) {
    const days = (name, fallback) => number(read, name, { min: 1, integer: true, fallback });
    const branchExpiryDays = days('branch-expiry-days', 90);
    const orphanExpiryDays = days('orphan-expiry-days', 90);
    if (orphanExpiryDays < branchExpiryDays) {
        throw new InputError('orphan-expiry-days', String(orphanExpiryDays), `whole days ≥ branch-expiry-days (${branchExpiryDays}): orphans are never removed sooner than persistent sandboxes`);
    }
    return {
        mode: 'reap',
        headlessExpiryDays: days('headless-expiry-days', 30),
        branchExpiryDays,
        orphanExpiryDays,
        dryRun: boolean(read, 'dry-run', false),
        maxRemovals: number(read, 'max-removals', { min: 0, integer: true, fallback: 0 }),
        force: boolean(read, 'force', false),
        archiveDir: pathInput(read, 'archive-dir') ?? '',
        image: image(read),
    };
}
function defaultWorktreeRoot(env) {
    const cache = env.XDG_CACHE_HOME && node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(env.XDG_CACHE_HOME)
        ? env.XDG_CACHE_HOME
        : node_path__WEBPACK_IMPORTED_MODULE_1__.join(env.HOME || node_os__WEBPACK_IMPORTED_MODULE_0__.homedir(), '.cache');
    return node_path__WEBPACK_IMPORTED_MODULE_1__.join(cache, 'worktree-sandbox', 'worktrees');
}
/** The host-only state folder (the git guards' records: guard-ledger.ts). Never mounted into a container. */
function defaultStateDir(env) {
    const state = env.XDG_STATE_HOME && node_path__WEBPACK_IMPORTED_MODULE_1__.isAbsolute(env.XDG_STATE_HOME)
        ? env.XDG_STATE_HOME
        : node_path__WEBPACK_IMPORTED_MODULE_1__.join(env.HOME || node_os__WEBPACK_IMPORTED_MODULE_0__.homedir(), '.local', 'state');
    return node_path__WEBPACK_IMPORTED_MODULE_1__.join(state, 'worktree-sandbox');
}
function oneOf(read, name, values, fallback) {
    const raw = read(name).trim();
    if (!raw)
        return fallback;
    const found = values.find((v) => v === raw.toLowerCase());
    if (!found)
        throw new InputError(name, raw, values.join(', '));
    return found;
}
function boolean(read, name, fallback) {
    const raw = read(name).trim();
    if (!raw)
        return fallback;
    if (/^true$/i.test(raw))
        return true;
    if (/^false$/i.test(raw))
        return false;
    throw new InputError(name, raw, 'true or false');
}
function number(read, name, rule) {
    const raw = read(name).trim();
    if (!raw)
        return rule.fallback;
    const pattern = rule.integer ? /^\d+$/ : /^(\d+(\.\d+)?|\.\d+)$/;
    const value = Number(raw);
    if (!pattern.test(raw) || !Number.isFinite(value) || value < rule.min || value > 1e9) {
        const kind = rule.integer ? 'a whole number' : 'a number';
        throw new InputError(name, raw, `${kind} ≥ ${rule.min}`);
    }
    return value;
}
function optionalPattern(read, name, pattern, accepted) {
    const raw = read(name).trim();
    if (!raw)
        return undefined;
    if (!pattern.test(raw))
        throw new InputError(name, raw, accepted);
    return raw;
}
function list(read, name, fallback) {
    const raw = read(name).trim();
    if (!raw)
        return fallback;
    return raw
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
}
// eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;
function pathInput(read, name) {
    const raw = read(name);
    if (!raw.trim())
        return undefined;
    if (CONTROL.test(raw))
        throw new InputError(name, raw, 'a path without control characters (newlines, tabs, NUL)');
    return node_path__WEBPACK_IMPORTED_MODULE_1__.resolve(raw.trim());
}
function image(read) {
    const raw = read('image').trim() || 'buildpack-deps:bookworm-scm';
    if (!/^[A-Za-z0-9][A-Za-z0-9._\-/:@]*$/.test(raw) || raw.length > 512) {
        throw new InputError('image', raw, 'an image reference such as debian:bookworm or ghcr.io/owner/image:tag');
    }
    return raw;
}
function volumePrefix(read) {
    const raw = read('volume-prefix').trim() || 'worktree-sandbox';
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(raw)) {
        throw new InputError('volume-prefix', raw, 'letters, digits, _ . - (starting with a letter or digit, at most 63 characters)');
    }
    return raw;
}
/** A first, pure check of a branch name; git's own rules are applied by `validateBranchNames`. */
function branchInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255 || value.includes('\ufffd')) {
        throw new InputError(name, raw, "a branch name valid for 'git check-ref-format --branch' (at most 255 characters)");
    }
    return value.replace(/^refs\/heads\//, '');
}
function revisionInput(read, name) {
    const raw = read(name);
    const value = raw.trim();
    if (!value)
        return '';
    if (CONTROL.test(raw) || value.startsWith('-') || value.length > 255) {
        throw new InputError(name, raw, 'a commit, branch or tag name');
    }
    return value;
}
function triggerCommand(read) {
    const raw = read('trigger').trim();
    if (!raw)
        return '';
    if (!/^\/?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(raw))
        throw new InputError('trigger', raw, 'one word such as /fix');
    return raw;
}
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Variables the action sets itself in the container; a user entry may not override them. */
const RESERVED_ENV = [
    'SANDBOX_NAME',
    'SANDBOX_KIND',
    'SANDBOX_BRANCH',
    'SANDBOX_WORKTREE',
    'SANDBOX_PARENT',
    'SANDBOX_PROMPT_FILE',
];
function envEntries(read, env) {
    const entries = [];
    for (const line of read('env').split(/\r?\n/)) {
        if (!line.trim() || line.trim().startsWith('#'))
            continue;
        const eq = line.indexOf('=');
        const name = (eq < 0 ? line : line.slice(0, eq)).trim();
        if (!ENV_NAME.test(name))
            throw new InputError('env', line, 'lines of NAME or NAME=value, NAME made of letters, digits and _');
        if (RESERVED_ENV.includes(name))
            throw new InputError('env', line, `a name other than ${RESERVED_ENV.join(', ')} (set by the action)`);
        if (entries.some((e) => e.name === name))
            throw new InputError('env', line, 'each NAME at most once');
        const value = eq < 0 ? (env[name] ?? '') : line.slice(eq + 1);
        entries.push({ name, value });
    }
    return entries;
}
/** Applies git's own branch-name rules (`git check-ref-format --branch`) once git is at hand. */
async function validateBranchNames(settings, isValid) {
    if (settings.branch && !(await isValid(settings.branch))) {
        throw new InputError('branch', settings.branch, "a branch name valid for 'git check-ref-format --branch'");
    }
}


/***/ }),

/***/ 2462:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   fQ: () => (/* binding */ loadRunState),
/* harmony export */   iZ: () => (/* binding */ saveRunState),
/* harmony export */   tl: () => (/* binding */ isPost)
/* harmony export */ });
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4436);
// What the main step leaves for the post step (GITHUB_STATE), and which of the two is running.
// As in actions/checkout: the flag is saved when the module first loads in the main step.

const isPost = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu('isPost') === 'true';
if (!isPost)
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ('isPost', 'true');
const KEY = 'run';
let current;
function saveRunState(update) {
    current = { ...(current ?? {}), ...update };
    _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .saveState */ .LZ(KEY, JSON.stringify(current));
}
function loadRunState() {
    const raw = _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .getState */ .Gu(KEY);
    if (!raw)
        return undefined;
    try {
        return JSON.parse(raw);
    }
    catch {
        return undefined;
    }
}


/***/ }),

/***/ 9662:
/***/ ((__unused_webpack_module, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   KF: () => (/* binding */ lockEntry),
/* harmony export */   Nm: () => (/* binding */ markUsed),
/* harmony export */   is: () => (/* binding */ INITIALIZING),
/* harmony export */   lc: () => (/* binding */ findWorktreeEntry),
/* harmony export */   sT: () => (/* binding */ dropEntry),
/* harmony export */   ue: () => (/* binding */ listWorktreeEntries)
/* harmony export */ });
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__nccwpck_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__nccwpck_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _metadata_changes_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(8482);
// Reading and editing a parent's per-worktree metadata (`<gitDir>/worktrees/<id>/`) directly. This is
// how the host addresses sandboxes whose worktree path it cannot resolve (volume sandboxes), and how
// only the entries we removed ourselves are dropped: never `git worktree prune`, which would also drop
// live volume sandboxes the host sees as "prunable".
//
// Every change here is announced to the parent's open git guards (metadata-changes.ts): callers hold the
// repository lock, as for every change to a parent's metadata.



const INITIALIZING = 'initializing';
async function listWorktreeEntries(gitDir) {
    const root = node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'worktrees');
    let ids;
    try {
        ids = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readdir(root);
    }
    catch {
        return [];
    }
    const entries = await Promise.all(ids.map((id) => readEntry(root, id)));
    return entries.filter((e) => e !== undefined);
}
async function readEntry(root, id) {
    const adminDir = node_path__WEBPACK_IMPORTED_MODULE_1__.join(root, id);
    const gitFile = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(adminDir, 'gitdir'), 'utf8').catch(() => undefined);
    if (gitFile === undefined)
        return undefined;
    const locked = await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.readFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(adminDir, 'locked'), 'utf8').catch(() => undefined);
    return { id, adminDir, gitFile: gitFile.trim(), locked: locked?.trim() };
}
async function findWorktreeEntry(gitDir, worktreePath) {
    const wanted = node_path__WEBPACK_IMPORTED_MODULE_1__.join(worktreePath, '.git');
    return (await listWorktreeEntries(gitDir)).find((e) => e.gitFile === wanted);
}
/** Locks an entry with a reason, as `git worktree lock --reason` would, without needing its path to resolve. */
async function lockEntry(entry, reason) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.writeFile(node_path__WEBPACK_IMPORTED_MODULE_1__.join(entry.adminDir, 'locked'), `${reason}\n`);
    await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_2__/* .announceEntries */ .o0)(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(entry.adminDir)), [entry.adminDir]);
}
/**
 * Marks a sandbox as used now (its admin folder's mtime), so that the reaper sees a run as activity even
 * when the run changed nothing git records (files deep in the tree do not move the worktree folder's mtime).
 */
async function markUsed(entry, now = new Date()) {
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.utimes(entry.adminDir, now, now).catch(() => undefined);
}
/** Drops exactly one entry (unlocking it): the sandbox it described must already be gone. */
async function dropEntry(gitDir, entry) {
    const root = node_path__WEBPACK_IMPORTED_MODULE_1__.join(gitDir, 'worktrees');
    if (node_path__WEBPACK_IMPORTED_MODULE_1__.dirname(entry.adminDir) !== root)
        throw new Error(`refusing to remove ${entry.adminDir}: not a worktree entry of ${gitDir}`);
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rm(entry.adminDir, { recursive: true, force: true });
    // git removes the folder once its last entry is gone; do the same so the parent looks untouched.
    await node_fs_promises__WEBPACK_IMPORTED_MODULE_0__.rmdir(root).catch(() => undefined);
    await (0,_metadata_changes_js__WEBPACK_IMPORTED_MODULE_2__/* .announceEntries */ .o0)(gitDir, [entry.adminDir]);
}


/***/ }),

/***/ 2613:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("assert");

/***/ }),

/***/ 9140:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("constants");

/***/ }),

/***/ 4434:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("events");

/***/ }),

/***/ 9896:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("fs");

/***/ }),

/***/ 8611:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("http");

/***/ }),

/***/ 5692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("https");

/***/ }),

/***/ 9278:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("net");

/***/ }),

/***/ 4589:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:assert");

/***/ }),

/***/ 6698:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:async_hooks");

/***/ }),

/***/ 4573:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:buffer");

/***/ }),

/***/ 7540:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:console");

/***/ }),

/***/ 7598:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");

/***/ }),

/***/ 3053:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:diagnostics_channel");

/***/ }),

/***/ 610:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:dns");

/***/ }),

/***/ 8474:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:events");

/***/ }),

/***/ 3024:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 1455:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");

/***/ }),

/***/ 7067:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http");

/***/ }),

/***/ 2467:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:http2");

/***/ }),

/***/ 7030:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:net");

/***/ }),

/***/ 8161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 6760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 643:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:perf_hooks");

/***/ }),

/***/ 1792:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:querystring");

/***/ }),

/***/ 7075:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:stream");

/***/ }),

/***/ 1692:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:tls");

/***/ }),

/***/ 3136:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");

/***/ }),

/***/ 7975:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util");

/***/ }),

/***/ 3429:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:util/types");

/***/ }),

/***/ 5919:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:worker_threads");

/***/ }),

/***/ 8522:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:zlib");

/***/ }),

/***/ 857:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("os");

/***/ }),

/***/ 6928:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("path");

/***/ }),

/***/ 2203:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("stream");

/***/ }),

/***/ 3193:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("string_decoder");

/***/ }),

/***/ 4756:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("tls");

/***/ }),

/***/ 9023:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("util");

/***/ }),

/***/ 4436:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  Yz: () => (/* binding */ debug),
  V4: () => (/* binding */ getInput),
  Gu: () => (/* binding */ getState),
  Os: () => (/* binding */ group),
  pq: () => (/* binding */ info),
  _o: () => (/* binding */ isDebug),
  LZ: () => (/* binding */ saveState),
  C1: () => (/* binding */ setFailed),
  uH: () => (/* binding */ setOutput),
  Pq: () => (/* binding */ setSecret),
  z: () => (/* reexport */ summary),
  $e: () => (/* binding */ warning)
});

// UNUSED EXPORTS: ExitCode, addPath, endGroup, error, exportVariable, getBooleanInput, getIDToken, getMultilineInput, markdownSummary, notice, platform, setCommandEcho, startGroup, toPlatformPath, toPosixPath, toWin32Path

// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/utils.js
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Sanitizes an input into a string so it can be passed into issueCommand safely
 * @param input input to sanitize into a string
 */
function utils_toCommandValue(input) {
    if (input === null || input === undefined) {
        return '';
    }
    else if (typeof input === 'string' || input instanceof String) {
        return input;
    }
    return JSON.stringify(input);
}
/**
 *
 * @param annotationProperties
 * @returns The command properties to send with the actual annotation command
 * See IssueCommandProperties: https://github.com/actions/runner/blob/main/src/Runner.Worker/ActionCommandManager.cs#L646
 */
function utils_toCommandProperties(annotationProperties) {
    if (!Object.keys(annotationProperties).length) {
        return {};
    }
    return {
        title: annotationProperties.title,
        file: annotationProperties.file,
        line: annotationProperties.startLine,
        endLine: annotationProperties.endLine,
        col: annotationProperties.startColumn,
        endColumn: annotationProperties.endColumn
    };
}
//# sourceMappingURL=utils.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/command.js


/**
 * Issues a command to the GitHub Actions runner
 *
 * @param command - The command name to issue
 * @param properties - Additional properties for the command (key-value pairs)
 * @param message - The message to include with the command
 * @remarks
 * This function outputs a specially formatted string to stdout that the Actions
 * runner interprets as a command. These commands can control workflow behavior,
 * set outputs, create annotations, mask values, and more.
 *
 * Command Format:
 *   ::name key=value,key=value::message
 *
 * @example
 * ```typescript
 * // Issue a warning annotation
 * issueCommand('warning', {}, 'This is a warning message');
 * // Output: ::warning::This is a warning message
 *
 * // Set an environment variable
 * issueCommand('set-env', { name: 'MY_VAR' }, 'some value');
 * // Output: ::set-env name=MY_VAR::some value
 *
 * // Add a secret mask
 * issueCommand('add-mask', {}, 'secretValue123');
 * // Output: ::add-mask::secretValue123
 * ```
 *
 * @internal
 * This is an internal utility function that powers the public API functions
 * such as setSecret, warning, error, and exportVariable.
 */
function command_issueCommand(command, properties, message) {
    const cmd = new Command(command, properties, message);
    process.stdout.write(cmd.toString() + external_os_.EOL);
}
function command_issue(name, message = '') {
    command_issueCommand(name, {}, message);
}
const CMD_STRING = '::';
class Command {
    constructor(command, properties, message) {
        if (!command) {
            command = 'missing.command';
        }
        this.command = command;
        this.properties = properties;
        this.message = message;
    }
    toString() {
        let cmdStr = CMD_STRING + this.command;
        if (this.properties && Object.keys(this.properties).length > 0) {
            cmdStr += ' ';
            let first = true;
            for (const key in this.properties) {
                if (this.properties.hasOwnProperty(key)) {
                    const val = this.properties[key];
                    if (val) {
                        if (first) {
                            first = false;
                        }
                        else {
                            cmdStr += ',';
                        }
                        cmdStr += `${key}=${escapeProperty(val)}`;
                    }
                }
            }
        }
        cmdStr += `${CMD_STRING}${escapeData(this.message)}`;
        return cmdStr;
    }
}
function escapeData(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A');
}
function escapeProperty(s) {
    return utils_toCommandValue(s)
        .replace(/%/g, '%25')
        .replace(/\r/g, '%0D')
        .replace(/\n/g, '%0A')
        .replace(/:/g, '%3A')
        .replace(/,/g, '%2C');
}
//# sourceMappingURL=command.js.map
;// CONCATENATED MODULE: external "crypto"
const external_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("crypto");
// EXTERNAL MODULE: external "fs"
var external_fs_ = __nccwpck_require__(9896);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/file-command.js
// For internal use, subject to change.
// We use any as a valid input type
/* eslint-disable @typescript-eslint/no-explicit-any */




function file_command_issueFileCommand(command, message) {
    const filePath = process.env[`GITHUB_${command}`];
    if (!filePath) {
        throw new Error(`Unable to find environment variable for file command ${command}`);
    }
    if (!external_fs_.existsSync(filePath)) {
        throw new Error(`Missing file at path: ${filePath}`);
    }
    external_fs_.appendFileSync(filePath, `${utils_toCommandValue(message)}${external_os_.EOL}`, {
        encoding: 'utf8'
    });
}
function file_command_prepareKeyValueMessage(key, value) {
    const delimiter = `ghadelimiter_${external_crypto_namespaceObject.randomUUID()}`;
    const convertedValue = utils_toCommandValue(value);
    // These should realistically never happen, but just in case someone finds a
    // way to exploit uuid generation let's not allow keys or values that contain
    // the delimiter.
    if (key.includes(delimiter)) {
        throw new Error(`Unexpected input: name should not contain the delimiter "${delimiter}"`);
    }
    if (convertedValue.includes(delimiter)) {
        throw new Error(`Unexpected input: value should not contain the delimiter "${delimiter}"`);
    }
    return `${key}<<${delimiter}${external_os_.EOL}${convertedValue}${external_os_.EOL}${delimiter}`;
}
//# sourceMappingURL=file-command.js.map
// EXTERNAL MODULE: external "path"
var external_path_ = __nccwpck_require__(6928);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/summary.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { access, appendFile, writeFile } = external_fs_.promises;
const SUMMARY_ENV_VAR = 'GITHUB_STEP_SUMMARY';
const SUMMARY_DOCS_URL = 'https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-job-summary';
class Summary {
    constructor() {
        this._buffer = '';
    }
    /**
     * Finds the summary file path from the environment, rejects if env var is not found or file does not exist
     * Also checks r/w permissions.
     *
     * @returns step summary file path
     */
    filePath() {
        return __awaiter(this, void 0, void 0, function* () {
            if (this._filePath) {
                return this._filePath;
            }
            const pathFromEnv = process.env[SUMMARY_ENV_VAR];
            if (!pathFromEnv) {
                throw new Error(`Unable to find environment variable for $${SUMMARY_ENV_VAR}. Check if your runtime environment supports job summaries.`);
            }
            try {
                yield access(pathFromEnv, external_fs_.constants.R_OK | external_fs_.constants.W_OK);
            }
            catch (_a) {
                throw new Error(`Unable to access summary file: '${pathFromEnv}'. Check if the file has correct read/write permissions.`);
            }
            this._filePath = pathFromEnv;
            return this._filePath;
        });
    }
    /**
     * Wraps content in an HTML tag, adding any HTML attributes
     *
     * @param {string} tag HTML tag to wrap
     * @param {string | null} content content within the tag
     * @param {[attribute: string]: string} attrs key-value list of HTML attributes to add
     *
     * @returns {string} content wrapped in HTML element
     */
    wrap(tag, content, attrs = {}) {
        const htmlAttrs = Object.entries(attrs)
            .map(([key, value]) => ` ${key}="${value}"`)
            .join('');
        if (!content) {
            return `<${tag}${htmlAttrs}>`;
        }
        return `<${tag}${htmlAttrs}>${content}</${tag}>`;
    }
    /**
     * Writes text in the buffer to the summary buffer file and empties buffer. Will append by default.
     *
     * @param {SummaryWriteOptions} [options] (optional) options for write operation
     *
     * @returns {Promise<Summary>} summary instance
     */
    write(options) {
        return __awaiter(this, void 0, void 0, function* () {
            const overwrite = !!(options === null || options === void 0 ? void 0 : options.overwrite);
            const filePath = yield this.filePath();
            const writeFunc = overwrite ? writeFile : appendFile;
            yield writeFunc(filePath, this._buffer, { encoding: 'utf8' });
            return this.emptyBuffer();
        });
    }
    /**
     * Clears the summary buffer and wipes the summary file
     *
     * @returns {Summary} summary instance
     */
    clear() {
        return __awaiter(this, void 0, void 0, function* () {
            return this.emptyBuffer().write({ overwrite: true });
        });
    }
    /**
     * Returns the current summary buffer as a string
     *
     * @returns {string} string of summary buffer
     */
    stringify() {
        return this._buffer;
    }
    /**
     * If the summary buffer is empty
     *
     * @returns {boolen} true if the buffer is empty
     */
    isEmptyBuffer() {
        return this._buffer.length === 0;
    }
    /**
     * Resets the summary buffer without writing to summary file
     *
     * @returns {Summary} summary instance
     */
    emptyBuffer() {
        this._buffer = '';
        return this;
    }
    /**
     * Adds raw text to the summary buffer
     *
     * @param {string} text content to add
     * @param {boolean} [addEOL=false] (optional) append an EOL to the raw text (default: false)
     *
     * @returns {Summary} summary instance
     */
    addRaw(text, addEOL = false) {
        this._buffer += text;
        return addEOL ? this.addEOL() : this;
    }
    /**
     * Adds the operating system-specific end-of-line marker to the buffer
     *
     * @returns {Summary} summary instance
     */
    addEOL() {
        return this.addRaw(external_os_.EOL);
    }
    /**
     * Adds an HTML codeblock to the summary buffer
     *
     * @param {string} code content to render within fenced code block
     * @param {string} lang (optional) language to syntax highlight code
     *
     * @returns {Summary} summary instance
     */
    addCodeBlock(code, lang) {
        const attrs = Object.assign({}, (lang && { lang }));
        const element = this.wrap('pre', this.wrap('code', code), attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML list to the summary buffer
     *
     * @param {string[]} items list of items to render
     * @param {boolean} [ordered=false] (optional) if the rendered list should be ordered or not (default: false)
     *
     * @returns {Summary} summary instance
     */
    addList(items, ordered = false) {
        const tag = ordered ? 'ol' : 'ul';
        const listItems = items.map(item => this.wrap('li', item)).join('');
        const element = this.wrap(tag, listItems);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML table to the summary buffer
     *
     * @param {SummaryTableCell[]} rows table rows
     *
     * @returns {Summary} summary instance
     */
    addTable(rows) {
        const tableBody = rows
            .map(row => {
            const cells = row
                .map(cell => {
                if (typeof cell === 'string') {
                    return this.wrap('td', cell);
                }
                const { header, data, colspan, rowspan } = cell;
                const tag = header ? 'th' : 'td';
                const attrs = Object.assign(Object.assign({}, (colspan && { colspan })), (rowspan && { rowspan }));
                return this.wrap(tag, data, attrs);
            })
                .join('');
            return this.wrap('tr', cells);
        })
            .join('');
        const element = this.wrap('table', tableBody);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds a collapsable HTML details element to the summary buffer
     *
     * @param {string} label text for the closed state
     * @param {string} content collapsable content
     *
     * @returns {Summary} summary instance
     */
    addDetails(label, content) {
        const element = this.wrap('details', this.wrap('summary', label) + content);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML image tag to the summary buffer
     *
     * @param {string} src path to the image you to embed
     * @param {string} alt text description of the image
     * @param {SummaryImageOptions} options (optional) addition image attributes
     *
     * @returns {Summary} summary instance
     */
    addImage(src, alt, options) {
        const { width, height } = options || {};
        const attrs = Object.assign(Object.assign({}, (width && { width })), (height && { height }));
        const element = this.wrap('img', null, Object.assign({ src, alt }, attrs));
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML section heading element
     *
     * @param {string} text heading text
     * @param {number | string} [level=1] (optional) the heading level, default: 1
     *
     * @returns {Summary} summary instance
     */
    addHeading(text, level) {
        const tag = `h${level}`;
        const allowedTag = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].includes(tag)
            ? tag
            : 'h1';
        const element = this.wrap(allowedTag, text);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML thematic break (<hr>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addSeparator() {
        const element = this.wrap('hr', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML line break (<br>) to the summary buffer
     *
     * @returns {Summary} summary instance
     */
    addBreak() {
        const element = this.wrap('br', null);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML blockquote to the summary buffer
     *
     * @param {string} text quote text
     * @param {string} cite (optional) citation url
     *
     * @returns {Summary} summary instance
     */
    addQuote(text, cite) {
        const attrs = Object.assign({}, (cite && { cite }));
        const element = this.wrap('blockquote', text, attrs);
        return this.addRaw(element).addEOL();
    }
    /**
     * Adds an HTML anchor tag to the summary buffer
     *
     * @param {string} text link text/content
     * @param {string} href hyperlink
     *
     * @returns {Summary} summary instance
     */
    addLink(text, href) {
        const element = this.wrap('a', text, { href });
        return this.addRaw(element).addEOL();
    }
}
const _summary = new Summary();
/**
 * @deprecated use `core.summary`
 */
const markdownSummary = (/* unused pure expression or super */ null && (_summary));
const summary = _summary;
//# sourceMappingURL=summary.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/path-utils.js

/**
 * toPosixPath converts the given path to the posix form. On Windows, \\ will be
 * replaced with /.
 *
 * @param pth. Path to transform.
 * @return string Posix path.
 */
function toPosixPath(pth) {
    return pth.replace(/[\\]/g, '/');
}
/**
 * toWin32Path converts the given path to the win32 form. On Linux, / will be
 * replaced with \\.
 *
 * @param pth. Path to transform.
 * @return string Win32 path.
 */
function toWin32Path(pth) {
    return pth.replace(/[/]/g, '\\');
}
/**
 * toPlatformPath converts the given path to a platform-specific path. It does
 * this by replacing instances of / and \ with the platform-specific path
 * separator.
 *
 * @param pth The path to platformize.
 * @return string The platform-specific path.
 */
function toPlatformPath(pth) {
    return pth.replace(/[/\\]/g, path.sep);
}
//# sourceMappingURL=path-utils.js.map
// EXTERNAL MODULE: ./node_modules/@actions/exec/lib/exec.js + 3 modules
var lib_exec = __nccwpck_require__(7187);
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/platform.js
var platform_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const getWindowsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout: version } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Version"', undefined, {
        silent: true
    });
    const { stdout: name } = yield exec.getExecOutput('powershell -command "(Get-CimInstance -ClassName Win32_OperatingSystem).Caption"', undefined, {
        silent: true
    });
    return {
        name: name.trim(),
        version: version.trim()
    };
});
const getMacOsInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    var _a, _b, _c, _d;
    const { stdout } = yield exec.getExecOutput('sw_vers', undefined, {
        silent: true
    });
    const version = (_b = (_a = stdout.match(/ProductVersion:\s*(.+)/)) === null || _a === void 0 ? void 0 : _a[1]) !== null && _b !== void 0 ? _b : '';
    const name = (_d = (_c = stdout.match(/ProductName:\s*(.+)/)) === null || _c === void 0 ? void 0 : _c[1]) !== null && _d !== void 0 ? _d : '';
    return {
        name,
        version
    };
});
const getLinuxInfo = () => platform_awaiter(void 0, void 0, void 0, function* () {
    const { stdout } = yield exec.getExecOutput('lsb_release', ['-i', '-r', '-s'], {
        silent: true
    });
    const [name, version] = stdout.trim().split('\n');
    return {
        name,
        version
    };
});
const platform = external_os_.platform();
const arch = external_os_.arch();
const isWindows = platform === 'win32';
const isMacOS = platform === 'darwin';
const isLinux = platform === 'linux';
function getDetails() {
    return platform_awaiter(this, void 0, void 0, function* () {
        return Object.assign(Object.assign({}, (yield (isWindows
            ? getWindowsInfo()
            : isMacOS
                ? getMacOsInfo()
                : getLinuxInfo()))), { platform,
            arch,
            isWindows,
            isMacOS,
            isLinux });
    });
}
//# sourceMappingURL=platform.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/core/lib/core.js
var core_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};





/**
 * The code to exit an action
 */
var ExitCode;
(function (ExitCode) {
    /**
     * A code indicating that the action was successful
     */
    ExitCode[ExitCode["Success"] = 0] = "Success";
    /**
     * A code indicating that the action was a failure
     */
    ExitCode[ExitCode["Failure"] = 1] = "Failure";
})(ExitCode || (ExitCode = {}));
//-----------------------------------------------------------------------
// Variables
//-----------------------------------------------------------------------
/**
 * Sets env variable for this action and future actions in the job
 * @param name the name of the variable to set
 * @param val the value of the variable. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function exportVariable(name, val) {
    const convertedVal = toCommandValue(val);
    process.env[name] = convertedVal;
    const filePath = process.env['GITHUB_ENV'] || '';
    if (filePath) {
        return issueFileCommand('ENV', prepareKeyValueMessage(name, val));
    }
    issueCommand('set-env', { name }, convertedVal);
}
/**
 * Registers a secret which will get masked from logs
 *
 * @param secret - Value of the secret to be masked
 * @remarks
 * This function instructs the Actions runner to mask the specified value in any
 * logs produced during the workflow run. Once registered, the secret value will
 * be replaced with asterisks (***) whenever it appears in console output, logs,
 * or error messages.
 *
 * This is useful for protecting sensitive information such as:
 * - API keys
 * - Access tokens
 * - Authentication credentials
 * - URL parameters containing signatures (SAS tokens)
 *
 * Note that masking only affects future logs; any previous appearances of the
 * secret in logs before calling this function will remain unmasked.
 *
 * @example
 * ```typescript
 * // Register an API token as a secret
 * const apiToken = "abc123xyz456";
 * setSecret(apiToken);
 *
 * // Now any logs containing this value will show *** instead
 * console.log(`Using token: ${apiToken}`); // Outputs: "Using token: ***"
 * ```
 */
function setSecret(secret) {
    command_issueCommand('add-mask', {}, secret);
}
/**
 * Prepends inputPath to the PATH (for this action and future actions)
 * @param inputPath
 */
function addPath(inputPath) {
    const filePath = process.env['GITHUB_PATH'] || '';
    if (filePath) {
        issueFileCommand('PATH', inputPath);
    }
    else {
        issueCommand('add-path', {}, inputPath);
    }
    process.env['PATH'] = `${inputPath}${path.delimiter}${process.env['PATH']}`;
}
/**
 * Gets the value of an input.
 * Unless trimWhitespace is set to false in InputOptions, the value is also trimmed.
 * Returns an empty string if the value is not defined.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string
 */
function getInput(name, options) {
    const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
    if (options && options.required && !val) {
        throw new Error(`Input required and not supplied: ${name}`);
    }
    if (options && options.trimWhitespace === false) {
        return val;
    }
    return val.trim();
}
/**
 * Gets the values of an multiline input.  Each value is also trimmed.
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   string[]
 *
 */
function getMultilineInput(name, options) {
    const inputs = getInput(name, options)
        .split('\n')
        .filter(x => x !== '');
    if (options && options.trimWhitespace === false) {
        return inputs;
    }
    return inputs.map(input => input.trim());
}
/**
 * Gets the input value of the boolean type in the YAML 1.2 "core schema" specification.
 * Support boolean input list: `true | True | TRUE | false | False | FALSE` .
 * The return value is also in boolean type.
 * ref: https://yaml.org/spec/1.2/spec.html#id2804923
 *
 * @param     name     name of the input to get
 * @param     options  optional. See InputOptions.
 * @returns   boolean
 */
function getBooleanInput(name, options) {
    const trueValue = ['true', 'True', 'TRUE'];
    const falseValue = ['false', 'False', 'FALSE'];
    const val = getInput(name, options);
    if (trueValue.includes(val))
        return true;
    if (falseValue.includes(val))
        return false;
    throw new TypeError(`Input does not meet YAML 1.2 "Core Schema" specification: ${name}\n` +
        `Support boolean input list: \`true | True | TRUE | false | False | FALSE\``);
}
/**
 * Sets the value of an output.
 *
 * @param     name     name of the output to set
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function setOutput(name, value) {
    const filePath = process.env['GITHUB_OUTPUT'] || '';
    if (filePath) {
        return file_command_issueFileCommand('OUTPUT', file_command_prepareKeyValueMessage(name, value));
    }
    process.stdout.write(external_os_.EOL);
    command_issueCommand('set-output', { name }, utils_toCommandValue(value));
}
/**
 * Enables or disables the echoing of commands into stdout for the rest of the step.
 * Echoing is disabled by default if ACTIONS_STEP_DEBUG is not set.
 *
 */
function setCommandEcho(enabled) {
    issue('echo', enabled ? 'on' : 'off');
}
//-----------------------------------------------------------------------
// Results
//-----------------------------------------------------------------------
/**
 * Sets the action status to failed.
 * When the action exits it will be with an exit code of 1
 * @param message add error issue message
 */
function setFailed(message) {
    process.exitCode = ExitCode.Failure;
    error(message);
}
//-----------------------------------------------------------------------
// Logging Commands
//-----------------------------------------------------------------------
/**
 * Gets whether Actions Step Debug is on or not
 */
function isDebug() {
    return process.env['RUNNER_DEBUG'] === '1';
}
/**
 * Writes debug message to user log
 * @param message debug message
 */
function debug(message) {
    command_issueCommand('debug', {}, message);
}
/**
 * Adds an error issue
 * @param message error issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function error(message, properties = {}) {
    command_issueCommand('error', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a warning issue
 * @param message warning issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function warning(message, properties = {}) {
    command_issueCommand('warning', utils_toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Adds a notice issue
 * @param message notice issue message. Errors will be converted to string via toString()
 * @param properties optional properties to add to the annotation.
 */
function notice(message, properties = {}) {
    issueCommand('notice', toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}
/**
 * Writes info to log with console.log.
 * @param message info message
 */
function info(message) {
    process.stdout.write(message + external_os_.EOL);
}
/**
 * Begin an output group.
 *
 * Output until the next `groupEnd` will be foldable in this group
 *
 * @param name The name of the output group
 */
function startGroup(name) {
    command_issue('group', name);
}
/**
 * End an output group.
 */
function endGroup() {
    command_issue('endgroup');
}
/**
 * Wrap an asynchronous function call in a group.
 *
 * Returns the same type as the function itself.
 *
 * @param name The name of the group
 * @param fn The function to wrap in the group
 */
function group(name, fn) {
    return core_awaiter(this, void 0, void 0, function* () {
        startGroup(name);
        let result;
        try {
            result = yield fn();
        }
        finally {
            endGroup();
        }
        return result;
    });
}
//-----------------------------------------------------------------------
// Wrapper action state
//-----------------------------------------------------------------------
/**
 * Saves state for current action, the state can only be retrieved by this action's post job execution.
 *
 * @param     name     name of the state to store
 * @param     value    value to store. Non-string values will be converted to a string via JSON.stringify
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function saveState(name, value) {
    const filePath = process.env['GITHUB_STATE'] || '';
    if (filePath) {
        return file_command_issueFileCommand('STATE', file_command_prepareKeyValueMessage(name, value));
    }
    command_issueCommand('save-state', { name }, utils_toCommandValue(value));
}
/**
 * Gets the value of an state set by this action's main execution.
 *
 * @param     name     name of the state to get
 * @returns   string
 */
function getState(name) {
    return process.env[`STATE_${name}`] || '';
}
function getIDToken(aud) {
    return core_awaiter(this, void 0, void 0, function* () {
        // worktree-sandbox: loaded on first use, not at start-up: oidc-utils pulls in @actions/http-client
        // and undici (~1 MB, ~45 ms and ~9 MB per process), which only getIDToken needs.
        const { OidcClient } = yield Promise.all(/* import() */[__nccwpck_require__.e(119), __nccwpck_require__.e(936)]).then(__nccwpck_require__.bind(__nccwpck_require__, 3936));
        return yield OidcClient.getIDToken(aud);
    });
}
/**
 * Summary exports
 */

/**
 * @deprecated use core.summary
 */

/**
 * Path exports
 */

/**
 * Platform utilities exports
 */

//# sourceMappingURL=core.js.map

/***/ }),

/***/ 7187:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  H: () => (/* binding */ getExecOutput)
});

// UNUSED EXPORTS: exec

// EXTERNAL MODULE: external "string_decoder"
var external_string_decoder_ = __nccwpck_require__(3193);
// EXTERNAL MODULE: external "os"
var external_os_ = __nccwpck_require__(857);
// EXTERNAL MODULE: external "events"
var external_events_ = __nccwpck_require__(4434);
;// CONCATENATED MODULE: external "child_process"
const external_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("child_process");
// EXTERNAL MODULE: external "path"
var external_path_ = __nccwpck_require__(6928);
// EXTERNAL MODULE: ./node_modules/@actions/io/lib/io.js
var io = __nccwpck_require__(8701);
// EXTERNAL MODULE: ./node_modules/@actions/io/lib/io-util.js
var io_util = __nccwpck_require__(90);
;// CONCATENATED MODULE: external "timers"
const external_timers_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("timers");
;// CONCATENATED MODULE: ./node_modules/@actions/exec/lib/toolrunner.js
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};







/* eslint-disable @typescript-eslint/unbound-method */
const IS_WINDOWS = process.platform === 'win32';
/*
 * Class for running command line tools. Handles quoting and arg parsing in a platform agnostic way.
 */
class ToolRunner extends external_events_.EventEmitter {
    constructor(toolPath, args, options) {
        super();
        if (!toolPath) {
            throw new Error("Parameter 'toolPath' cannot be null or empty.");
        }
        this.toolPath = toolPath;
        this.args = args || [];
        this.options = options || {};
    }
    _debug(message) {
        if (this.options.listeners && this.options.listeners.debug) {
            this.options.listeners.debug(message);
        }
    }
    _getCommandString(options, noPrefix) {
        const toolPath = this._getSpawnFileName();
        const args = this._getSpawnArgs(options);
        let cmd = noPrefix ? '' : '[command]'; // omit prefix when piped to a second tool
        if (IS_WINDOWS) {
            // Windows + cmd file
            if (this._isCmdFile()) {
                cmd += toolPath;
                for (const a of args) {
                    cmd += ` ${a}`;
                }
            }
            // Windows + verbatim
            else if (options.windowsVerbatimArguments) {
                cmd += `"${toolPath}"`;
                for (const a of args) {
                    cmd += ` ${a}`;
                }
            }
            // Windows (regular)
            else {
                cmd += this._windowsQuoteCmdArg(toolPath);
                for (const a of args) {
                    cmd += ` ${this._windowsQuoteCmdArg(a)}`;
                }
            }
        }
        else {
            // OSX/Linux - this can likely be improved with some form of quoting.
            // creating processes on Unix is fundamentally different than Windows.
            // on Unix, execvp() takes an arg array.
            cmd += toolPath;
            for (const a of args) {
                cmd += ` ${a}`;
            }
        }
        return cmd;
    }
    _processLineBuffer(data, strBuffer, onLine) {
        try {
            let s = strBuffer + data.toString();
            let n = s.indexOf(external_os_.EOL);
            while (n > -1) {
                const line = s.substring(0, n);
                onLine(line);
                // the rest of the string ...
                s = s.substring(n + external_os_.EOL.length);
                n = s.indexOf(external_os_.EOL);
            }
            return s;
        }
        catch (err) {
            // streaming lines to console is best effort.  Don't fail a build.
            this._debug(`error processing line. Failed with error ${err}`);
            return '';
        }
    }
    _getSpawnFileName() {
        if (IS_WINDOWS) {
            if (this._isCmdFile()) {
                return process.env['COMSPEC'] || 'cmd.exe';
            }
        }
        return this.toolPath;
    }
    _getSpawnArgs(options) {
        if (IS_WINDOWS) {
            if (this._isCmdFile()) {
                let argline = `/D /S /C "${this._windowsQuoteCmdArg(this.toolPath)}`;
                for (const a of this.args) {
                    argline += ' ';
                    argline += options.windowsVerbatimArguments
                        ? a
                        : this._windowsQuoteCmdArg(a);
                }
                argline += '"';
                return [argline];
            }
        }
        return this.args;
    }
    _endsWith(str, end) {
        return str.endsWith(end);
    }
    _isCmdFile() {
        const upperToolPath = this.toolPath.toUpperCase();
        return (this._endsWith(upperToolPath, '.CMD') ||
            this._endsWith(upperToolPath, '.BAT'));
    }
    _windowsQuoteCmdArg(arg) {
        // for .exe, apply the normal quoting rules that libuv applies
        if (!this._isCmdFile()) {
            return this._uvQuoteCmdArg(arg);
        }
        // otherwise apply quoting rules specific to the cmd.exe command line parser.
        // the libuv rules are generic and are not designed specifically for cmd.exe
        // command line parser.
        //
        // for a detailed description of the cmd.exe command line parser, refer to
        // http://stackoverflow.com/questions/4094699/how-does-the-windows-command-interpreter-cmd-exe-parse-scripts/7970912#7970912
        // need quotes for empty arg
        if (!arg) {
            return '""';
        }
        // determine whether the arg needs to be quoted
        const cmdSpecialChars = [
            ' ',
            '\t',
            '&',
            '(',
            ')',
            '[',
            ']',
            '{',
            '}',
            '^',
            '=',
            ';',
            '!',
            "'",
            '+',
            ',',
            '`',
            '~',
            '|',
            '<',
            '>',
            '"'
        ];
        let needsQuotes = false;
        for (const char of arg) {
            if (cmdSpecialChars.some(x => x === char)) {
                needsQuotes = true;
                break;
            }
        }
        // short-circuit if quotes not needed
        if (!needsQuotes) {
            return arg;
        }
        // the following quoting rules are very similar to the rules that by libuv applies.
        //
        // 1) wrap the string in quotes
        //
        // 2) double-up quotes - i.e. " => ""
        //
        //    this is different from the libuv quoting rules. libuv replaces " with \", which unfortunately
        //    doesn't work well with a cmd.exe command line.
        //
        //    note, replacing " with "" also works well if the arg is passed to a downstream .NET console app.
        //    for example, the command line:
        //          foo.exe "myarg:""my val"""
        //    is parsed by a .NET console app into an arg array:
        //          [ "myarg:\"my val\"" ]
        //    which is the same end result when applying libuv quoting rules. although the actual
        //    command line from libuv quoting rules would look like:
        //          foo.exe "myarg:\"my val\""
        //
        // 3) double-up slashes that precede a quote,
        //    e.g.  hello \world    => "hello \world"
        //          hello\"world    => "hello\\""world"
        //          hello\\"world   => "hello\\\\""world"
        //          hello world\    => "hello world\\"
        //
        //    technically this is not required for a cmd.exe command line, or the batch argument parser.
        //    the reasons for including this as a .cmd quoting rule are:
        //
        //    a) this is optimized for the scenario where the argument is passed from the .cmd file to an
        //       external program. many programs (e.g. .NET console apps) rely on the slash-doubling rule.
        //
        //    b) it's what we've been doing previously (by deferring to node default behavior) and we
        //       haven't heard any complaints about that aspect.
        //
        // note, a weakness of the quoting rules chosen here, is that % is not escaped. in fact, % cannot be
        // escaped when used on the command line directly - even though within a .cmd file % can be escaped
        // by using %%.
        //
        // the saving grace is, on the command line, %var% is left as-is if var is not defined. this contrasts
        // the line parsing rules within a .cmd file, where if var is not defined it is replaced with nothing.
        //
        // one option that was explored was replacing % with ^% - i.e. %var% => ^%var^%. this hack would
        // often work, since it is unlikely that var^ would exist, and the ^ character is removed when the
        // variable is used. the problem, however, is that ^ is not removed when %* is used to pass the args
        // to an external program.
        //
        // an unexplored potential solution for the % escaping problem, is to create a wrapper .cmd file.
        // % can be escaped within a .cmd file.
        let reverse = '"';
        let quoteHit = true;
        for (let i = arg.length; i > 0; i--) {
            // walk the string in reverse
            reverse += arg[i - 1];
            if (quoteHit && arg[i - 1] === '\\') {
                reverse += '\\'; // double the slash
            }
            else if (arg[i - 1] === '"') {
                quoteHit = true;
                reverse += '"'; // double the quote
            }
            else {
                quoteHit = false;
            }
        }
        reverse += '"';
        return reverse.split('').reverse().join('');
    }
    _uvQuoteCmdArg(arg) {
        // Tool runner wraps child_process.spawn() and needs to apply the same quoting as
        // Node in certain cases where the undocumented spawn option windowsVerbatimArguments
        // is used.
        //
        // Since this function is a port of quote_cmd_arg from Node 4.x (technically, lib UV,
        // see https://github.com/nodejs/node/blob/v4.x/deps/uv/src/win/process.c for details),
        // pasting copyright notice from Node within this function:
        //
        //      Copyright Joyent, Inc. and other Node contributors. All rights reserved.
        //
        //      Permission is hereby granted, free of charge, to any person obtaining a copy
        //      of this software and associated documentation files (the "Software"), to
        //      deal in the Software without restriction, including without limitation the
        //      rights to use, copy, modify, merge, publish, distribute, sublicense, and/or
        //      sell copies of the Software, and to permit persons to whom the Software is
        //      furnished to do so, subject to the following conditions:
        //
        //      The above copyright notice and this permission notice shall be included in
        //      all copies or substantial portions of the Software.
        //
        //      THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
        //      IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
        //      FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
        //      AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
        //      LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING
        //      FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS
        //      IN THE SOFTWARE.
        if (!arg) {
            // Need double quotation for empty argument
            return '""';
        }
        if (!arg.includes(' ') && !arg.includes('\t') && !arg.includes('"')) {
            // No quotation needed
            return arg;
        }
        if (!arg.includes('"') && !arg.includes('\\')) {
            // No embedded double quotes or backslashes, so I can just wrap
            // quote marks around the whole thing.
            return `"${arg}"`;
        }
        // Expected input/output:
        //   input : hello"world
        //   output: "hello\"world"
        //   input : hello""world
        //   output: "hello\"\"world"
        //   input : hello\world
        //   output: hello\world
        //   input : hello\\world
        //   output: hello\\world
        //   input : hello\"world
        //   output: "hello\\\"world"
        //   input : hello\\"world
        //   output: "hello\\\\\"world"
        //   input : hello world\
        //   output: "hello world\\" - note the comment in libuv actually reads "hello world\"
        //                             but it appears the comment is wrong, it should be "hello world\\"
        let reverse = '"';
        let quoteHit = true;
        for (let i = arg.length; i > 0; i--) {
            // walk the string in reverse
            reverse += arg[i - 1];
            if (quoteHit && arg[i - 1] === '\\') {
                reverse += '\\';
            }
            else if (arg[i - 1] === '"') {
                quoteHit = true;
                reverse += '\\';
            }
            else {
                quoteHit = false;
            }
        }
        reverse += '"';
        return reverse.split('').reverse().join('');
    }
    _cloneExecOptions(options) {
        options = options || {};
        const result = {
            cwd: options.cwd || process.cwd(),
            env: options.env || process.env,
            silent: options.silent || false,
            windowsVerbatimArguments: options.windowsVerbatimArguments || false,
            failOnStdErr: options.failOnStdErr || false,
            ignoreReturnCode: options.ignoreReturnCode || false,
            delay: options.delay || 10000
        };
        result.outStream = options.outStream || process.stdout;
        result.errStream = options.errStream || process.stderr;
        return result;
    }
    _getSpawnOptions(options, toolPath) {
        options = options || {};
        const result = {};
        result.cwd = options.cwd;
        result.env = options.env;
        result['windowsVerbatimArguments'] =
            options.windowsVerbatimArguments || this._isCmdFile();
        if (options.windowsVerbatimArguments) {
            result.argv0 = `"${toolPath}"`;
        }
        return result;
    }
    /**
     * Exec a tool.
     * Output will be streamed to the live console.
     * Returns promise with return code
     *
     * @param     tool     path to tool to exec
     * @param     options  optional exec options.  See ExecOptions
     * @returns   number
     */
    exec() {
        return __awaiter(this, void 0, void 0, function* () {
            // root the tool path if it is unrooted and contains relative pathing
            if (!io_util/* isRooted */.Qh(this.toolPath) &&
                (this.toolPath.includes('/') ||
                    (IS_WINDOWS && this.toolPath.includes('\\')))) {
                // prefer options.cwd if it is specified, however options.cwd may also need to be rooted
                this.toolPath = external_path_.resolve(process.cwd(), this.options.cwd || process.cwd(), this.toolPath);
            }
            // if the tool is only a file name, then resolve it from the PATH
            // otherwise verify it exists (add extension on Windows if necessary)
            this.toolPath = yield io/* which */.K7(this.toolPath, true);
            return new Promise((resolve, reject) => __awaiter(this, void 0, void 0, function* () {
                this._debug(`exec tool: ${this.toolPath}`);
                this._debug('arguments:');
                for (const arg of this.args) {
                    this._debug(`   ${arg}`);
                }
                const optionsNonNull = this._cloneExecOptions(this.options);
                if (!optionsNonNull.silent && optionsNonNull.outStream) {
                    optionsNonNull.outStream.write(this._getCommandString(optionsNonNull) + external_os_.EOL);
                }
                const state = new ExecState(optionsNonNull, this.toolPath);
                state.on('debug', (message) => {
                    this._debug(message);
                });
                if (this.options.cwd && !(yield io_util/* exists */.t2(this.options.cwd))) {
                    return reject(new Error(`The cwd: ${this.options.cwd} does not exist!`));
                }
                const fileName = this._getSpawnFileName();
                const cp = external_child_process_namespaceObject.spawn(fileName, this._getSpawnArgs(optionsNonNull), this._getSpawnOptions(this.options, fileName));
                let stdbuffer = '';
                if (cp.stdout) {
                    cp.stdout.on('data', (data) => {
                        if (this.options.listeners && this.options.listeners.stdout) {
                            this.options.listeners.stdout(data);
                        }
                        if (!optionsNonNull.silent && optionsNonNull.outStream) {
                            optionsNonNull.outStream.write(data);
                        }
                        stdbuffer = this._processLineBuffer(data, stdbuffer, (line) => {
                            if (this.options.listeners && this.options.listeners.stdline) {
                                this.options.listeners.stdline(line);
                            }
                        });
                    });
                }
                let errbuffer = '';
                if (cp.stderr) {
                    cp.stderr.on('data', (data) => {
                        state.processStderr = true;
                        if (this.options.listeners && this.options.listeners.stderr) {
                            this.options.listeners.stderr(data);
                        }
                        if (!optionsNonNull.silent &&
                            optionsNonNull.errStream &&
                            optionsNonNull.outStream) {
                            const s = optionsNonNull.failOnStdErr
                                ? optionsNonNull.errStream
                                : optionsNonNull.outStream;
                            s.write(data);
                        }
                        errbuffer = this._processLineBuffer(data, errbuffer, (line) => {
                            if (this.options.listeners && this.options.listeners.errline) {
                                this.options.listeners.errline(line);
                            }
                        });
                    });
                }
                cp.on('error', (err) => {
                    state.processError = err.message;
                    state.processExited = true;
                    state.processClosed = true;
                    state.CheckComplete();
                });
                cp.on('exit', (code) => {
                    state.processExitCode = code;
                    state.processExited = true;
                    this._debug(`Exit code ${code} received from tool '${this.toolPath}'`);
                    state.CheckComplete();
                });
                cp.on('close', (code) => {
                    state.processExitCode = code;
                    state.processExited = true;
                    state.processClosed = true;
                    this._debug(`STDIO streams have closed for tool '${this.toolPath}'`);
                    state.CheckComplete();
                });
                state.on('done', (error, exitCode) => {
                    if (stdbuffer.length > 0) {
                        this.emit('stdline', stdbuffer);
                    }
                    if (errbuffer.length > 0) {
                        this.emit('errline', errbuffer);
                    }
                    cp.removeAllListeners();
                    if (error) {
                        reject(error);
                    }
                    else {
                        resolve(exitCode);
                    }
                });
                if (this.options.input) {
                    if (!cp.stdin) {
                        throw new Error('child process missing stdin');
                    }
                    cp.stdin.end(this.options.input);
                }
            }));
        });
    }
}
/**
 * Convert an arg string to an array of args. Handles escaping
 *
 * @param    argString   string of arguments
 * @returns  string[]    array of arguments
 */
function argStringToArray(argString) {
    const args = [];
    let inQuotes = false;
    let escaped = false;
    let arg = '';
    function append(c) {
        // we only escape double quotes.
        if (escaped && c !== '"') {
            arg += '\\';
        }
        arg += c;
        escaped = false;
    }
    for (let i = 0; i < argString.length; i++) {
        const c = argString.charAt(i);
        if (c === '"') {
            if (!escaped) {
                inQuotes = !inQuotes;
            }
            else {
                append(c);
            }
            continue;
        }
        if (c === '\\' && escaped) {
            append(c);
            continue;
        }
        if (c === '\\' && inQuotes) {
            escaped = true;
            continue;
        }
        if (c === ' ' && !inQuotes) {
            if (arg.length > 0) {
                args.push(arg);
                arg = '';
            }
            continue;
        }
        append(c);
    }
    if (arg.length > 0) {
        args.push(arg.trim());
    }
    return args;
}
class ExecState extends external_events_.EventEmitter {
    constructor(options, toolPath) {
        super();
        this.processClosed = false; // tracks whether the process has exited and stdio is closed
        this.processError = '';
        this.processExitCode = 0;
        this.processExited = false; // tracks whether the process has exited
        this.processStderr = false; // tracks whether stderr was written to
        this.delay = 10000; // 10 seconds
        this.done = false;
        this.timeout = null;
        if (!toolPath) {
            throw new Error('toolPath must not be empty');
        }
        this.options = options;
        this.toolPath = toolPath;
        if (options.delay) {
            this.delay = options.delay;
        }
    }
    CheckComplete() {
        if (this.done) {
            return;
        }
        if (this.processClosed) {
            this._setResult();
        }
        else if (this.processExited) {
            this.timeout = (0,external_timers_namespaceObject.setTimeout)(ExecState.HandleTimeout, this.delay, this);
        }
    }
    _debug(message) {
        this.emit('debug', message);
    }
    _setResult() {
        // determine whether there is an error
        let error;
        if (this.processExited) {
            if (this.processError) {
                error = new Error(`There was an error when attempting to execute the process '${this.toolPath}'. This may indicate the process failed to start. Error: ${this.processError}`);
            }
            else if (this.processExitCode !== 0 && !this.options.ignoreReturnCode) {
                error = new Error(`The process '${this.toolPath}' failed with exit code ${this.processExitCode}`);
            }
            else if (this.processStderr && this.options.failOnStdErr) {
                error = new Error(`The process '${this.toolPath}' failed because one or more lines were written to the STDERR stream`);
            }
        }
        // clear the timeout
        if (this.timeout) {
            clearTimeout(this.timeout);
            this.timeout = null;
        }
        this.done = true;
        this.emit('done', error, this.processExitCode);
    }
    static HandleTimeout(state) {
        if (state.done) {
            return;
        }
        if (!state.processClosed && state.processExited) {
            const message = `The STDIO streams did not close within ${state.delay / 1000} seconds of the exit event from process '${state.toolPath}'. This may indicate a child process inherited the STDIO streams and has not yet exited.`;
            state._debug(message);
        }
        state._setResult();
    }
}
//# sourceMappingURL=toolrunner.js.map
;// CONCATENATED MODULE: ./node_modules/@actions/exec/lib/exec.js
var exec_awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


/**
 * Exec a command.
 * Output will be streamed to the live console.
 * Returns promise with return code
 *
 * @param     commandLine        command to execute (can include additional args). Must be correctly escaped.
 * @param     args               optional arguments for tool. Escaping is handled by the lib.
 * @param     options            optional exec options.  See ExecOptions
 * @returns   Promise<number>    exit code
 */
function exec(commandLine, args, options) {
    return exec_awaiter(this, void 0, void 0, function* () {
        const commandArgs = argStringToArray(commandLine);
        if (commandArgs.length === 0) {
            throw new Error(`Parameter 'commandLine' cannot be null or empty.`);
        }
        // Path to tool to execute should be first arg
        const toolPath = commandArgs[0];
        args = commandArgs.slice(1).concat(args || []);
        const runner = new ToolRunner(toolPath, args, options);
        return runner.exec();
    });
}
/**
 * Exec a command and get the output.
 * Output will be streamed to the live console.
 * Returns promise with the exit code and collected stdout and stderr
 *
 * @param     commandLine           command to execute (can include additional args). Must be correctly escaped.
 * @param     args                  optional arguments for tool. Escaping is handled by the lib.
 * @param     options               optional exec options.  See ExecOptions
 * @returns   Promise<ExecOutput>   exit code, stdout, and stderr
 */
function getExecOutput(commandLine, args, options) {
    return exec_awaiter(this, void 0, void 0, function* () {
        var _a, _b;
        let stdout = '';
        let stderr = '';
        //Using string decoder covers the case where a mult-byte character is split
        const stdoutDecoder = new external_string_decoder_.StringDecoder('utf8');
        const stderrDecoder = new external_string_decoder_.StringDecoder('utf8');
        const originalStdoutListener = (_a = options === null || options === void 0 ? void 0 : options.listeners) === null || _a === void 0 ? void 0 : _a.stdout;
        const originalStdErrListener = (_b = options === null || options === void 0 ? void 0 : options.listeners) === null || _b === void 0 ? void 0 : _b.stderr;
        const stdErrListener = (data) => {
            stderr += stderrDecoder.write(data);
            if (originalStdErrListener) {
                originalStdErrListener(data);
            }
        };
        const stdOutListener = (data) => {
            stdout += stdoutDecoder.write(data);
            if (originalStdoutListener) {
                originalStdoutListener(data);
            }
        };
        const listeners = Object.assign(Object.assign({}, options === null || options === void 0 ? void 0 : options.listeners), { stdout: stdOutListener, stderr: stdErrListener });
        const exitCode = yield exec(commandLine, args, Object.assign(Object.assign({}, options), { listeners }));
        //flush any remaining characters
        stdout += stdoutDecoder.end();
        stderr += stderrDecoder.end();
        return {
            exitCode,
            stdout,
            stderr
        };
    });
}
//# sourceMappingURL=exec.js.map

/***/ }),

/***/ 90:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   H8: () => (/* binding */ IS_WINDOWS),
/* harmony export */   Qh: () => (/* binding */ isRooted),
/* harmony export */   t2: () => (/* binding */ exists),
/* harmony export */   vr: () => (/* binding */ tryGetExecutablePath)
/* harmony export */ });
/* unused harmony exports chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink, readlink, UV_FS_O_EXLOCK, READONLY, isDirectory, getCmdPath */
/* harmony import */ var fs__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(9896);
/* harmony import */ var path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6928);
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};


const { chmod, copyFile, lstat, mkdir, open, readdir, rename, rm, rmdir, stat, symlink, unlink } = fs__WEBPACK_IMPORTED_MODULE_0__.promises;
// export const {open} = 'fs'
const IS_WINDOWS = process.platform === 'win32';
/**
 * Custom implementation of readlink to ensure Windows junctions
 * maintain trailing backslash for backward compatibility with Node.js < 24
 *
 * In Node.js 20, Windows junctions (directory symlinks) always returned paths
 * with trailing backslashes. Node.js 24 removed this behavior, which breaks
 * code that relied on this format for path operations.
 *
 * This implementation restores the Node 20 behavior by adding a trailing
 * backslash to all junction results on Windows.
 */
function readlink(fsPath) {
    return __awaiter(this, void 0, void 0, function* () {
        const result = yield fs.promises.readlink(fsPath);
        // On Windows, restore Node 20 behavior: add trailing backslash to all results
        // since junctions on Windows are always directory links
        if (IS_WINDOWS && !result.endsWith('\\')) {
            return `${result}\\`;
        }
        return result;
    });
}
// See https://github.com/nodejs/node/blob/d0153aee367422d0858105abec186da4dff0a0c5/deps/uv/include/uv/win.h#L691
const UV_FS_O_EXLOCK = 0x10000000;
const READONLY = fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY;
function exists(fsPath) {
    return __awaiter(this, void 0, void 0, function* () {
        try {
            yield stat(fsPath);
        }
        catch (err) {
            if (err.code === 'ENOENT') {
                return false;
            }
            throw err;
        }
        return true;
    });
}
function isDirectory(fsPath_1) {
    return __awaiter(this, arguments, void 0, function* (fsPath, useStat = false) {
        const stats = useStat ? yield stat(fsPath) : yield lstat(fsPath);
        return stats.isDirectory();
    });
}
/**
 * On OSX/Linux, true if path starts with '/'. On Windows, true for paths like:
 * \, \hello, \\hello\share, C:, and C:\hello (and corresponding alternate separator cases).
 */
function isRooted(p) {
    p = normalizeSeparators(p);
    if (!p) {
        throw new Error('isRooted() parameter "p" cannot be empty');
    }
    if (IS_WINDOWS) {
        return (p.startsWith('\\') || /^[A-Z]:/i.test(p) // e.g. \ or \hello or \\hello
        ); // e.g. C: or C:\hello
    }
    return p.startsWith('/');
}
/**
 * Best effort attempt to determine whether a file exists and is executable.
 * @param filePath    file path to check
 * @param extensions  additional file extensions to try
 * @return if file exists and is executable, returns the file path. otherwise empty string.
 */
function tryGetExecutablePath(filePath, extensions) {
    return __awaiter(this, void 0, void 0, function* () {
        let stats = undefined;
        try {
            // test file exists
            stats = yield stat(filePath);
        }
        catch (err) {
            if (err.code !== 'ENOENT') {
                // eslint-disable-next-line no-console
                console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
            }
        }
        if (stats && stats.isFile()) {
            if (IS_WINDOWS) {
                // on Windows, test for valid extension
                const upperExt = path__WEBPACK_IMPORTED_MODULE_1__.extname(filePath).toUpperCase();
                if (extensions.some(validExt => validExt.toUpperCase() === upperExt)) {
                    return filePath;
                }
            }
            else {
                if (isUnixExecutable(stats)) {
                    return filePath;
                }
            }
        }
        // try each extension
        const originalFilePath = filePath;
        for (const extension of extensions) {
            filePath = originalFilePath + extension;
            stats = undefined;
            try {
                stats = yield stat(filePath);
            }
            catch (err) {
                if (err.code !== 'ENOENT') {
                    // eslint-disable-next-line no-console
                    console.log(`Unexpected error attempting to determine if executable file exists '${filePath}': ${err}`);
                }
            }
            if (stats && stats.isFile()) {
                if (IS_WINDOWS) {
                    // preserve the case of the actual file (since an extension was appended)
                    try {
                        const directory = path__WEBPACK_IMPORTED_MODULE_1__.dirname(filePath);
                        const upperName = path__WEBPACK_IMPORTED_MODULE_1__.basename(filePath).toUpperCase();
                        for (const actualName of yield readdir(directory)) {
                            if (upperName === actualName.toUpperCase()) {
                                filePath = path__WEBPACK_IMPORTED_MODULE_1__.join(directory, actualName);
                                break;
                            }
                        }
                    }
                    catch (err) {
                        // eslint-disable-next-line no-console
                        console.log(`Unexpected error attempting to determine the actual case of the file '${filePath}': ${err}`);
                    }
                    return filePath;
                }
                else {
                    if (isUnixExecutable(stats)) {
                        return filePath;
                    }
                }
            }
        }
        return '';
    });
}
function normalizeSeparators(p) {
    p = p || '';
    if (IS_WINDOWS) {
        // convert slashes on Windows
        p = p.replace(/\//g, '\\');
        // remove redundant slashes
        return p.replace(/\\\\+/g, '\\');
    }
    // remove redundant slashes
    return p.replace(/\/\/+/g, '/');
}
// on Mac/Linux, test the execute bit
//     R   W  X  R  W X R W X
//   256 128 64 32 16 8 4 2 1
function isUnixExecutable(stats) {
    return ((stats.mode & 1) > 0 ||
        ((stats.mode & 8) > 0 &&
            process.getgid !== undefined &&
            stats.gid === process.getgid()) ||
        ((stats.mode & 64) > 0 &&
            process.getuid !== undefined &&
            stats.uid === process.getuid()));
}
// Get the path of cmd.exe in windows
function getCmdPath() {
    var _a;
    return (_a = process.env['COMSPEC']) !== null && _a !== void 0 ? _a : `cmd.exe`;
}
//# sourceMappingURL=io-util.js.map

/***/ }),

/***/ 8701:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   K7: () => (/* binding */ which)
/* harmony export */ });
/* unused harmony exports cp, mv, rmRF, mkdirP, findInPath */
/* harmony import */ var assert__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(2613);
/* harmony import */ var path__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(6928);
/* harmony import */ var _io_util_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(90);
var __awaiter = (undefined && undefined.__awaiter) || function (thisArg, _arguments, P, generator) {
    function adopt(value) { return value instanceof P ? value : new P(function (resolve) { resolve(value); }); }
    return new (P || (P = Promise))(function (resolve, reject) {
        function fulfilled(value) { try { step(generator.next(value)); } catch (e) { reject(e); } }
        function rejected(value) { try { step(generator["throw"](value)); } catch (e) { reject(e); } }
        function step(result) { result.done ? resolve(result.value) : adopt(result.value).then(fulfilled, rejected); }
        step((generator = generator.apply(thisArg, _arguments || [])).next());
    });
};



/**
 * Copies a file or folder.
 * Based off of shelljs - https://github.com/shelljs/shelljs/blob/9237f66c52e5daa40458f94f9565e18e8132f5a6/src/cp.js
 *
 * @param     source    source path
 * @param     dest      destination path
 * @param     options   optional. See CopyOptions.
 */
function cp(source_1, dest_1) {
    return __awaiter(this, arguments, void 0, function* (source, dest, options = {}) {
        const { force, recursive, copySourceDirectory } = readCopyOptions(options);
        const destStat = (yield ioUtil.exists(dest)) ? yield ioUtil.stat(dest) : null;
        // Dest is an existing file, but not forcing
        if (destStat && destStat.isFile() && !force) {
            return;
        }
        // If dest is an existing directory, should copy inside.
        const newDest = destStat && destStat.isDirectory() && copySourceDirectory
            ? path.join(dest, path.basename(source))
            : dest;
        if (!(yield ioUtil.exists(source))) {
            throw new Error(`no such file or directory: ${source}`);
        }
        const sourceStat = yield ioUtil.stat(source);
        if (sourceStat.isDirectory()) {
            if (!recursive) {
                throw new Error(`Failed to copy. ${source} is a directory, but tried to copy without recursive flag.`);
            }
            else {
                yield cpDirRecursive(source, newDest, 0, force);
            }
        }
        else {
            if (path.relative(source, newDest) === '') {
                // a file cannot be copied to itself
                throw new Error(`'${newDest}' and '${source}' are the same file`);
            }
            yield copyFile(source, newDest, force);
        }
    });
}
/**
 * Moves a path.
 *
 * @param     source    source path
 * @param     dest      destination path
 * @param     options   optional. See MoveOptions.
 */
function mv(source_1, dest_1) {
    return __awaiter(this, arguments, void 0, function* (source, dest, options = {}) {
        if (yield ioUtil.exists(dest)) {
            let destExists = true;
            if (yield ioUtil.isDirectory(dest)) {
                // If dest is directory copy src into dest
                dest = path.join(dest, path.basename(source));
                destExists = yield ioUtil.exists(dest);
            }
            if (destExists) {
                if (options.force == null || options.force) {
                    yield rmRF(dest);
                }
                else {
                    throw new Error('Destination already exists');
                }
            }
        }
        yield mkdirP(path.dirname(dest));
        yield ioUtil.rename(source, dest);
    });
}
/**
 * Remove a path recursively with force
 *
 * @param inputPath path to remove
 */
function rmRF(inputPath) {
    return __awaiter(this, void 0, void 0, function* () {
        if (ioUtil.IS_WINDOWS) {
            // Check for invalid characters
            // https://docs.microsoft.com/en-us/windows/win32/fileio/naming-a-file
            if (/[*"<>|]/.test(inputPath)) {
                throw new Error('File path must not contain `*`, `"`, `<`, `>` or `|` on Windows');
            }
        }
        try {
            // note if path does not exist, error is silent
            yield ioUtil.rm(inputPath, {
                force: true,
                maxRetries: 3,
                recursive: true,
                retryDelay: 300
            });
        }
        catch (err) {
            throw new Error(`File was unable to be removed ${err}`);
        }
    });
}
/**
 * Make a directory.  Creates the full path with folders in between
 * Will throw if it fails
 *
 * @param   fsPath        path to create
 * @returns Promise<void>
 */
function mkdirP(fsPath) {
    return __awaiter(this, void 0, void 0, function* () {
        ok(fsPath, 'a path argument must be provided');
        yield ioUtil.mkdir(fsPath, { recursive: true });
    });
}
/**
 * Returns path of a tool had the tool actually been invoked.  Resolves via paths.
 * If you check and the tool does not exist, it will throw.
 *
 * @param     tool              name of the tool
 * @param     check             whether to check if tool exists
 * @returns   Promise<string>   path to tool
 */
function which(tool, check) {
    return __awaiter(this, void 0, void 0, function* () {
        if (!tool) {
            throw new Error("parameter 'tool' is required");
        }
        // recursive when check=true
        if (check) {
            const result = yield which(tool, false);
            if (!result) {
                if (_io_util_js__WEBPACK_IMPORTED_MODULE_2__/* .IS_WINDOWS */ .H8) {
                    throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also verify the file has a valid extension for an executable file.`);
                }
                else {
                    throw new Error(`Unable to locate executable file: ${tool}. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable. Also check the file mode to verify the file is executable.`);
                }
            }
            return result;
        }
        const matches = yield findInPath(tool);
        if (matches && matches.length > 0) {
            return matches[0];
        }
        return '';
    });
}
/**
 * Returns a list of all occurrences of the given tool on the system path.
 *
 * @returns   Promise<string[]>  the paths of the tool
 */
function findInPath(tool) {
    return __awaiter(this, void 0, void 0, function* () {
        if (!tool) {
            throw new Error("parameter 'tool' is required");
        }
        // build the list of extensions to try
        const extensions = [];
        if (_io_util_js__WEBPACK_IMPORTED_MODULE_2__/* .IS_WINDOWS */ .H8 && process.env['PATHEXT']) {
            for (const extension of process.env['PATHEXT'].split(path__WEBPACK_IMPORTED_MODULE_1__.delimiter)) {
                if (extension) {
                    extensions.push(extension);
                }
            }
        }
        // if it's rooted, return it if exists. otherwise return empty.
        if (_io_util_js__WEBPACK_IMPORTED_MODULE_2__/* .isRooted */ .Qh(tool)) {
            const filePath = yield _io_util_js__WEBPACK_IMPORTED_MODULE_2__/* .tryGetExecutablePath */ .vr(tool, extensions);
            if (filePath) {
                return [filePath];
            }
            return [];
        }
        // if any path separators, return empty
        if (tool.includes(path__WEBPACK_IMPORTED_MODULE_1__.sep)) {
            return [];
        }
        // build the list of directories
        //
        // Note, technically "where" checks the current directory on Windows. From a toolkit perspective,
        // it feels like we should not do this. Checking the current directory seems like more of a use
        // case of a shell, and the which() function exposed by the toolkit should strive for consistency
        // across platforms.
        const directories = [];
        if (process.env.PATH) {
            for (const p of process.env.PATH.split(path__WEBPACK_IMPORTED_MODULE_1__.delimiter)) {
                if (p) {
                    directories.push(p);
                }
            }
        }
        // find all matches
        const matches = [];
        for (const directory of directories) {
            const filePath = yield _io_util_js__WEBPACK_IMPORTED_MODULE_2__/* .tryGetExecutablePath */ .vr(path__WEBPACK_IMPORTED_MODULE_1__.join(directory, tool), extensions);
            if (filePath) {
                matches.push(filePath);
            }
        }
        return matches;
    });
}
function readCopyOptions(options) {
    const force = options.force == null ? true : options.force;
    const recursive = Boolean(options.recursive);
    const copySourceDirectory = options.copySourceDirectory == null
        ? true
        : Boolean(options.copySourceDirectory);
    return { force, recursive, copySourceDirectory };
}
function cpDirRecursive(sourceDir, destDir, currentDepth, force) {
    return __awaiter(this, void 0, void 0, function* () {
        // Ensure there is not a run away recursive copy
        if (currentDepth >= 255)
            return;
        currentDepth++;
        yield mkdirP(destDir);
        const files = yield ioUtil.readdir(sourceDir);
        for (const fileName of files) {
            const srcFile = `${sourceDir}/${fileName}`;
            const destFile = `${destDir}/${fileName}`;
            const srcFileStat = yield ioUtil.lstat(srcFile);
            if (srcFileStat.isDirectory()) {
                // Recurse
                yield cpDirRecursive(srcFile, destFile, currentDepth, force);
            }
            else {
                yield copyFile(srcFile, destFile, force);
            }
        }
        // Change the mode for the newly created directory
        yield ioUtil.chmod(destDir, (yield ioUtil.stat(sourceDir)).mode);
    });
}
// Buffered file copy
function copyFile(srcFile, destFile, force) {
    return __awaiter(this, void 0, void 0, function* () {
        if ((yield ioUtil.lstat(srcFile)).isSymbolicLink()) {
            // unlink/re-link it
            try {
                yield ioUtil.lstat(destFile);
                yield ioUtil.unlink(destFile);
            }
            catch (e) {
                // Try to override file permission
                if (e.code === 'EPERM') {
                    yield ioUtil.chmod(destFile, '0666');
                    yield ioUtil.unlink(destFile);
                }
                // other errors = it doesn't exist, no work to do
            }
            // Copy over symlink
            const symlinkFull = yield ioUtil.readlink(srcFile);
            yield ioUtil.symlink(symlinkFull, destFile, ioUtil.IS_WINDOWS ? 'junction' : null);
        }
        else if (!(yield ioUtil.exists(destFile)) || force) {
            yield ioUtil.copyFile(srcFile, destFile);
        }
    });
}
//# sourceMappingURL=io.js.map

/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId].call(module.exports, module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/******/ // expose the modules object (__webpack_modules__)
/******/ __nccwpck_require__.m = __webpack_modules__;
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/compat get default export */
/******/ (() => {
/******/ 	// getDefaultExport function for compatibility with non-harmony modules
/******/ 	__nccwpck_require__.n = (module) => {
/******/ 		var getter = module && module.__esModule ?
/******/ 			() => (module['default']) :
/******/ 			() => (module);
/******/ 		__nccwpck_require__.d(getter, { a: getter });
/******/ 		return getter;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/create fake namespace object */
/******/ (() => {
/******/ 	var getProto = Object.getPrototypeOf ? (obj) => (Object.getPrototypeOf(obj)) : (obj) => (obj.__proto__);
/******/ 	var leafPrototypes;
/******/ 	// create a fake namespace object
/******/ 	// mode & 1: value is a module id, require it
/******/ 	// mode & 2: merge all properties of value into the ns
/******/ 	// mode & 4: return value when already ns object
/******/ 	// mode & 16: return value when it's Promise-like
/******/ 	// mode & 8|1: behave like require
/******/ 	__nccwpck_require__.t = function(value, mode) {
/******/ 		if(mode & 1) value = this(value);
/******/ 		if(mode & 8) return value;
/******/ 		if(typeof value === 'object' && value) {
/******/ 			if((mode & 4) && value.__esModule) return value;
/******/ 			if((mode & 16) && typeof value.then === 'function') return value;
/******/ 		}
/******/ 		var ns = Object.create(null);
/******/ 		__nccwpck_require__.r(ns);
/******/ 		var def = {};
/******/ 		leafPrototypes = leafPrototypes || [null, getProto({}), getProto([]), getProto(getProto)];
/******/ 		for(var current = mode & 2 && value; typeof current == 'object' && !~leafPrototypes.indexOf(current); current = getProto(current)) {
/******/ 			Object.getOwnPropertyNames(current).forEach((key) => (def[key] = () => (value[key])));
/******/ 		}
/******/ 		def['default'] = () => (value);
/******/ 		__nccwpck_require__.d(ns, def);
/******/ 		return ns;
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/ensure chunk */
/******/ (() => {
/******/ 	__nccwpck_require__.f = {};
/******/ 	// This file contains only the entry chunk.
/******/ 	// The chunk loading function for additional chunks
/******/ 	__nccwpck_require__.e = (chunkId) => {
/******/ 		return Promise.all(Object.keys(__nccwpck_require__.f).reduce((promises, key) => {
/******/ 			__nccwpck_require__.f[key](chunkId, promises);
/******/ 			return promises;
/******/ 		}, []));
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/get javascript chunk filename */
/******/ (() => {
/******/ 	// This function allow to reference async chunks
/******/ 	__nccwpck_require__.u = (chunkId) => {
/******/ 		// return url for filenames based on template
/******/ 		return "" + chunkId + ".index.js";
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/******/ /* webpack/runtime/make namespace object */
/******/ (() => {
/******/ 	// define __esModule on exports
/******/ 	__nccwpck_require__.r = (exports) => {
/******/ 		if(typeof Symbol !== 'undefined' && Symbol.toStringTag) {
/******/ 			Object.defineProperty(exports, Symbol.toStringTag, { value: 'Module' });
/******/ 		}
/******/ 		Object.defineProperty(exports, '__esModule', { value: true });
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/import chunk loading */
/******/ (() => {
/******/ 	// no baseURI
/******/ 	
/******/ 	// object to store loaded and loading chunks
/******/ 	// undefined = chunk not loaded, null = chunk preloaded/prefetched
/******/ 	// [resolve, Promise] = chunk loading, 0 = chunk loaded
/******/ 	var installedChunks = {
/******/ 		792: 0
/******/ 	};
/******/ 	
/******/ 	var installChunk = (data) => {
/******/ 		var {ids, modules, runtime} = data;
/******/ 		// add "modules" to the modules object,
/******/ 		// then flag all "ids" as loaded and fire callback
/******/ 		var moduleId, chunkId, i = 0;
/******/ 		for(moduleId in modules) {
/******/ 			if(__nccwpck_require__.o(modules, moduleId)) {
/******/ 				__nccwpck_require__.m[moduleId] = modules[moduleId];
/******/ 			}
/******/ 		}
/******/ 		if(runtime) runtime(__nccwpck_require__);
/******/ 		for(;i < ids.length; i++) {
/******/ 			chunkId = ids[i];
/******/ 			if(__nccwpck_require__.o(installedChunks, chunkId) && installedChunks[chunkId]) {
/******/ 				installedChunks[chunkId][0]();
/******/ 			}
/******/ 			installedChunks[ids[i]] = 0;
/******/ 		}
/******/ 	
/******/ 	}
/******/ 	
/******/ 	__nccwpck_require__.f.j = (chunkId, promises) => {
/******/ 			// import() chunk loading for javascript
/******/ 			var installedChunkData = __nccwpck_require__.o(installedChunks, chunkId) ? installedChunks[chunkId] : undefined;
/******/ 			if(installedChunkData !== 0) { // 0 means "already installed".
/******/ 	
/******/ 				// a Promise means "currently loading".
/******/ 				if(installedChunkData) {
/******/ 					promises.push(installedChunkData[1]);
/******/ 				} else {
/******/ 					if(true) { // all chunks have JS
/******/ 						// setup Promise in chunk cache
/******/ 						var promise = import("./" + __nccwpck_require__.u(chunkId)).then(installChunk, (e) => {
/******/ 							if(installedChunks[chunkId] !== 0) installedChunks[chunkId] = undefined;
/******/ 							throw e;
/******/ 						});
/******/ 						var promise = Promise.race([promise, new Promise((resolve) => (installedChunkData = installedChunks[chunkId] = [resolve]))])
/******/ 						promises.push(installedChunkData[1] = promise);
/******/ 					}
/******/ 				}
/******/ 			}
/******/ 	};
/******/ 	
/******/ 	// no prefetching
/******/ 	
/******/ 	// no preloaded
/******/ 	
/******/ 	// no external install chunk
/******/ 	
/******/ 	// no on chunks loaded
/******/ })();
/******/ 
/************************************************************************/
var __webpack_exports__ = {};
/* harmony import */ var _actions_core__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(4436);
/* harmony import */ var _action_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(2527);
/* harmony import */ var _state_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(2462);
// One bundle for both phases (action.yml `main` and `post`), told apart by state saved in main.



async function entry() {
    try {
        if (_state_js__WEBPACK_IMPORTED_MODULE_2__/* .isPost */ .tl)
            await (0,_action_js__WEBPACK_IMPORTED_MODULE_1__/* .post */ .bE)();
        else
            await (0,_action_js__WEBPACK_IMPORTED_MODULE_1__/* .main */ .iW)();
    }
    catch (error) {
        _actions_core__WEBPACK_IMPORTED_MODULE_0__/* .setFailed */ .C1(error.message);
    }
}
void entry();

