// A fresh folder per test, named after the test and the process, removed afterwards.
#ifndef RETARGET_TESTS_SUPPORT_SCRATCH_FOLDER_HPP
#define RETARGET_TESTS_SUPPORT_SCRATCH_FOLDER_HPP

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace support {

class scratch_folder_test : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("retarget-" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
};

}  // namespace support

#endif  // RETARGET_TESTS_SUPPORT_SCRATCH_FOLDER_HPP
