# SOURCE: junyanz/pytorch-CycleGAN-and-pix2pix@0ae4f0500e415a6a67689ef9356e8e4779ae5833 train.py (BSD licence of the repository; visualisation and saving trimmed)
import time
from options.train_options import TrainOptions
from data.data_loader import CreateDataLoader
from models.models import create_model

opt = TrainOptions().parse()
data_loader = CreateDataLoader(opt)
dataset = data_loader.load_data()
dataset_size = len(data_loader)
print('#training images = %d' % dataset_size)

model = create_model(opt)
total_steps = 0

for epoch in range(opt.epoch_count, opt.niter + opt.niter_decay + 1):
    epoch_start_time = time.time()
    epoch_iter = 0

    for i, data in enumerate(dataset):
        iter_start_time = time.time()
        total_steps += opt.batchSize
        epoch_iter += opt.batchSize
        model.set_input(data)
        model.optimize_parameters()

    if epoch % opt.save_epoch_freq == 0:
        model.save('latest')
        model.save(epoch)

    print('End of epoch %d / %d \t Time Taken: %d sec' %
          (epoch, opt.niter + opt.niter_decay, time.time() - epoch_start_time))
    model.update_learning_rate()
